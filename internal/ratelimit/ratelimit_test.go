package ratelimit_test

import (
	"context"
	"fmt"
	"sync"
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

// Many requests at once for one key (one caller hammering a route, on one or several servers)
// are all counted, with no error: the first inserts the key's row, the others update it.
func TestDatabaseConcurrentRequestsForOneKey(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		l := ratelimit.NewDatabase(st.DB(), st.Rebind)
		rule := ratelimit.Rule{Window: time.Minute, Max: 5}
		key := fmt.Sprintf("127.0.0.1|/sign-in/email|%d", time.Now().UnixNano())
		const n = 24
		type result struct {
			ok  bool
			err error
		}
		results := make(chan result, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ok, _, err := l.Allow(context.Background(), key, rule)
				results <- result{ok, err}
			}()
		}
		close(start)
		wg.Wait()
		close(results)
		allowed := 0
		for r := range results {
			if r.err != nil {
				t.Errorf("concurrent request failed: %v", r.err)
			}
			if r.ok {
				allowed++
			}
		}
		if allowed != rule.Max {
			t.Errorf("%d of %d concurrent requests allowed, want %d", allowed, n, rule.Max)
		}
	})
}

// Rows whose windows have long passed are deleted, so the table does not keep every caller
// that ever came; recent ones stay.
func TestDatabaseDeletesOldRows(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		l := ratelimit.NewDatabase(st.DB(), st.Rebind)
		now := time.Now()
		l.SetClock(func() time.Time { return now })
		rule := ratelimit.Rule{Window: 10 * time.Second, Max: 3}
		old, recent := fmt.Sprintf("old|%d", now.UnixNano()), fmt.Sprintf("recent|%d", now.UnixNano())
		l.Allow(context.Background(), old, rule)
		now = now.Add(2 * time.Hour)
		l.Allow(context.Background(), recent, rule)
		now = now.Add(2 * time.Minute) // the next sweep is due
		l.Allow(context.Background(), recent, rule)
		rows := func(key string) int {
			var n int
			if err := st.DB().QueryRow(st.Rebind(`select count(*) from "rateLimit" where "key" = ?`), key).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if rows(old) != 0 {
			t.Error("a row two hours past its window is still there")
		}
		if rows(recent) != 1 {
			t.Error("a recent row was deleted")
		}
	})
}
