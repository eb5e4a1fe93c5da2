package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Two servers sharing one PostgreSQL database share sessions and, with the rate limits in the
// database or in Redis, share those too.
func TestTwoServersShareSessionsAndLimits(t *testing.T) {
	for _, storage := range []string{"database", "redis"} {
		t.Run("limits="+storage, func(t *testing.T) {
			url, _ := testkit.PostgresSchema(t)
			open := func() *store.Store {
				st, err := store.Open(context.Background(), url, "")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				return st
			}
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
