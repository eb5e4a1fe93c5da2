package ratelimit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sellertrends/sellertrends/internal/ratelimit"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// exercise checks a limiter: 3 allowed, the 4th refused with a wait inside the window.
func exercise(t *testing.T, l ratelimit.Limiter) {
	t.Helper()
	rule := ratelimit.Rule{Window: 10 * time.Second, Max: 3}
	key := fmt.Sprintf("127.0.0.1|/sign-in/email|%d", time.Now().UnixNano())
	for i := 0; i < 3; i++ {
		if ok, _, err := l.Allow(context.Background(), key, rule); !ok || err != nil {
			t.Fatalf("request %d refused: %v", i+1, err)
		}
	}
	ok, wait, err := l.Allow(context.Background(), key, rule)
	if ok || err != nil || wait <= 0 || wait > 10*time.Second {
		t.Fatalf("4th request: ok=%v wait=%v err=%v", ok, wait, err)
	}
	if ok, _, _ := l.Allow(context.Background(), key+"-other", rule); !ok {
		t.Error("another key shares the count")
	}
}

func TestMemory(t *testing.T) { exercise(t, ratelimit.NewMemory()) }

func TestDatabase(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		exercise(t, ratelimit.NewDatabase(st.DB(), st.Rebind))
	})
}

// Two servers sharing one PostgreSQL database (two limiters, two pools) share the count.
func TestDatabaseSharedAcrossServers(t *testing.T) {
	url, _ := testkit.PostgresSchema(t)
	a, err := store.Open(context.Background(), url, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(context.Background(), url, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	la, lb := ratelimit.NewDatabase(a.DB(), a.Rebind), ratelimit.NewDatabase(b.DB(), b.Rebind)
	rule := ratelimit.Rule{Window: time.Minute, Max: 2}
	la.Allow(context.Background(), "k", rule)
	lb.Allow(context.Background(), "k", rule)
	if ok, _, _ := la.Allow(context.Background(), "k", rule); ok {
		t.Error("the second server's request was not counted")
	}
}

func TestRedis(t *testing.T) {
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer client.Close()
	exercise(t, ratelimit.NewRedis(client, fmt.Sprintf("test:%d:", time.Now().UnixNano())))
}
