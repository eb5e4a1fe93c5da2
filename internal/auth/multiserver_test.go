package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sellertrends/sellertrends/internal/sessioncache"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Two servers sharing one PostgreSQL database share sessions and, with the rate limits in the
// database or in Redis, share those too.
func TestTwoServersShareSessionsAndLimits(t *testing.T) {
	for _, storage := range []string{"database", "redis"} {
		t.Run("limits="+storage, func(t *testing.T) {
			url, _ := testkit.PostgresSchema(t)
			open := func() *store.Store { return openShared(t, url) }
			env := map[string]string{"AUTH_RATE_LIMIT_ENABLED": "true", "AUTH_RATE_LIMIT_STORAGE": storage, "REDIS_URL": "redis://127.0.0.1:6379/0"}
			a, b := testkit.Server(t, open(), env), testkit.Server(t, open(), env)
			email := fmt.Sprintf("shared-%d@example.com", time.Now().UnixNano())
			ca := a.SignUp(t, email, "password123")
			token := ca.Cookie("better-auth.session_token")
			// The cookie signed by server A is read by server B (same secret, same database).
			res := b.Client(t).Do("GET", "/api/auth/get-session?disableCookieCache=true", nil, "Cookie", "better-auth.session_token="+token)
			if s := sessionOf(t, res); s == nil || s["user"].(map[string]any)["email"] != email {
				t.Fatalf("server B does not see server A's session: %s", res.Body)
			}
			// Three sign-ins through A and B together exhaust the 3-per-10-s rule for this IP.
			body := map[string]any{"email": email, "password": "wrong-password"}
			a.Client(t).Do("POST", "/api/auth/sign-in/email", body)
			b.Client(t).Do("POST", "/api/auth/sign-in/email", body)
			a.Client(t).Do("POST", "/api/auth/sign-in/email", body)
			if res := b.Client(t).Do("POST", "/api/auth/sign-in/email", body); res.Status != http.StatusTooManyRequests {
				t.Errorf("4th sign-in across both servers: %d, want 429", res.Status)
			}
		})
	}
}

// With REDIS_URL set, get-session answers from the shared Redis cache, and every change made on
// one server (profile, revocation) shows on the other at once.
func TestSessionCacheInRedisStaysCoherentAcrossServers(t *testing.T) {
	url, _ := testkit.PostgresSchema(t)
	open := func() *store.Store { return openShared(t, url) }
	env := map[string]string{"REDIS_URL": "redis://127.0.0.1:6379/0"}
	a, b := testkit.Server(t, open(), env), testkit.Server(t, open(), env)
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()
	email := fmt.Sprintf("cache-%d@example.com", time.Now().UnixNano())
	ca := a.SignUp(t, email, "password123")
	signed := ca.Cookie("better-auth.session_token")
	raw := strings.SplitN(signed, ".", 2)[0]
	getB := func() map[string]any {
		res := b.Client(t).Do("GET", "/api/auth/get-session?disableCookieCache=true", nil, "Cookie", "better-auth.session_token="+signed)
		return sessionOf(t, res)
	}
	if s := getB(); s == nil || s["user"].(map[string]any)["email"] != email {
		t.Fatal("server B does not see the session")
	}
	if n := rdb.Exists(context.Background(), sessioncache.Prefix+"t:"+raw).Val(); n != 1 {
		t.Fatal("get-session did not cache the session in Redis")
	}
	if res := ca.Do("POST", "/api/auth/update-user", map[string]any{"name": "Renamed on A"}); res.Status != 200 {
		t.Fatalf("update-user: %d %s", res.Status, res.Body)
	}
	if s := getB(); s == nil || s["user"].(map[string]any)["name"] != "Renamed on A" {
		t.Fatalf("server B still shows the old name: %v", s)
	}
	// Plugins' fields travel in the cached pair too (store.Carried), and every change to them
	// drops it: the active organization after create, set-active and delete.
	res := ca.Do("POST", "/api/auth/organization/create", map[string]any{"name": "Cached Org", "slug": fmt.Sprintf("cached-%d", time.Now().UnixNano())})
	if res.Status != 200 {
		t.Fatalf("organization/create: %d %s", res.Status, res.Body)
	}
	org := res.JSON(t)["id"]
	activeOnB := func() any { return getB()["session"].(map[string]any)["activeOrganizationId"] }
	if got := activeOnB(); got != org {
		t.Fatalf("server B's active organization after create: %v, want %v", got, org)
	}
	if res := ca.Do("POST", "/api/auth/organization/set-active", map[string]any{"organizationId": nil}); res.Status != 200 {
		t.Fatalf("set-active null: %d %s", res.Status, res.Body)
	}
	if got := activeOnB(); got != nil {
		t.Fatalf("server B's active organization after set-active null: %v", got)
	}
	ca.Do("POST", "/api/auth/organization/set-active", map[string]any{"organizationId": org})
	if got := activeOnB(); got != org {
		t.Fatalf("server B's active organization after set-active: %v", got)
	}
	if res := ca.Do("POST", "/api/auth/organization/delete", map[string]any{"organizationId": org}); res.Status != 200 {
		t.Fatalf("organization/delete: %d %s", res.Status, res.Body)
	}
	if got := activeOnB(); got != nil {
		t.Fatalf("server B still names the deleted organization: %v", got)
	}
	if res := ca.Do("POST", "/api/auth/sign-out", map[string]any{}); res.Status != 200 {
		t.Fatalf("sign-out: %d", res.Status)
	}
	if s := getB(); s != nil {
		t.Fatalf("server B still accepts a session signed out on A: %v", s)
	}
}

// openShared opens one more store on the PostgreSQL schema at url, as a second server would.
func openShared(t *testing.T, url string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), url, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
