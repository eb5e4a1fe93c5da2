package sessioncache

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sellertrends/sellertrends/internal/store"
)

func open(t *testing.T) *Redis {
	t.Helper()
	r := New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"}), fmt.Sprintf("test:%d:", time.Now().UnixNano()))
	if err := r.client.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("Redis at 127.0.0.1:6379 is needed: %v", err)
	}
	t.Cleanup(func() {
		keys, _ := r.client.Keys(context.Background(), r.prefix+"*").Result()
		if len(keys) > 0 {
			r.client.Del(context.Background(), keys...)
		}
		r.client.Close()
	})
	return r
}

func pair(token, userID string) (*store.Session, *store.User) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	return &store.Session{ID: "s-" + token, Token: token, UserID: userID, ExpiresAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now},
		&store.User{ID: userID, Name: "Ada", Email: "ada@example.com", CreatedAt: now, UpdatedAt: now}
}

func TestFillLookupInvalidate(t *testing.T) {
	ctx := context.Background()
	r := open(t)
	sess, user := pair("tok-1", "u-1")
	_, _, ticket, ok, err := r.Lookup(ctx, "tok-1")
	if err != nil || ok || ticket == "" {
		t.Fatalf("empty cache: ok %v ticket %q err %v", ok, ticket, err)
	}
	if err := r.Fill(ctx, ticket, sess, user, time.Minute); err != nil {
		t.Fatal(err)
	}
	s2, u2, _, ok, err := r.Lookup(ctx, "tok-1")
	if err != nil || !ok || s2.Token != "tok-1" || u2.Email != user.Email || !s2.ExpiresAt.Equal(sess.ExpiresAt) {
		t.Fatalf("after fill: %+v %+v %v %v", s2, u2, ok, err)
	}
	if ttl := r.client.PTTL(ctx, r.prefix+"t:tok-1").Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("entry TTL %v, want within a minute", ttl)
	}
	if err := r.InvalidateUser(ctx, "u-1"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok, _ := r.Lookup(ctx, "tok-1"); ok {
		t.Fatal("an invalidated user's session is still cached")
	}
}

// A read that started before a revocation must not put the revoked session back.
func TestFillAfterInvalidationIsRefused(t *testing.T) {
	ctx := context.Background()
	r := open(t)
	sess, user := pair("tok-2", "u-2")
	_, _, staleTicket, _, _ := r.Lookup(ctx, "tok-2")
	if err := r.InvalidateUser(ctx, "u-2"); err != nil { // the revocation lands meanwhile
		t.Fatal(err)
	}
	if err := r.Fill(ctx, staleTicket, sess, user, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok, _ := r.Lookup(ctx, "tok-2"); ok {
		t.Fatal("a fill that raced with an invalidation was stored")
	}
}

func TestUnreadableEntryIsAMiss(t *testing.T) {
	ctx := context.Background()
	r := open(t)
	r.client.Set(ctx, r.prefix+"t:tok-3", "{not json", time.Minute)
	if _, _, ticket, ok, err := r.Lookup(ctx, "tok-3"); ok || err == nil || ticket == "" {
		t.Fatalf("garbage entry: ok %v err %v ticket %q", ok, err, ticket)
	}
}
