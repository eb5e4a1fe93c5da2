package auth_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func sessionOf(t *testing.T, res testkit.Response) map[string]any {
	t.Helper()
	if res.Status != http.StatusOK {
		t.Fatalf("get-session: %d %s", res.Status, res.Body)
	}
	if strings.TrimSpace(string(res.Body)) == "null" {
		return nil
	}
	return res.JSON(t)
}

func TestGetSession(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		now := time.Now().UTC()
		app.Auth.SetClock(func() time.Time { return now })

		t.Run("anonymous is null", func(t *testing.T) {
			res := app.Client(t).Do("GET", "/api/auth/get-session", nil)
			if sessionOf(t, res) != nil || res.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("%s %v", res.Body, res.Header)
			}
		})

		c := app.SignUp(t, "ann@example.com", "password123")
		token := c.Do("GET", "/api/auth/get-session", nil).JSON(t)["session"].(map[string]any)["token"].(string)

		t.Run("cookie cache answers without the database", func(t *testing.T) {
			// Rename the user behind the cache's back: the cached answer keeps the old name.
			name := "Renamed"
			if _, err := st.UpdateUser(t.Context(), c.Do("GET", "/api/auth/get-session", nil).JSON(t)["user"].(map[string]any)["id"].(string), store.UserUpdate{Name: &name}, now); err != nil {
				t.Fatal(err)
			}
			cached := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil))
			if cached["user"].(map[string]any)["name"] != "Test User" {
				t.Errorf("expected the cached name, got %v", cached["user"])
			}
			fresh := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil))
			if fresh["user"].(map[string]any)["name"] != "Renamed" {
				t.Errorf("disableCookieCache should read the database, got %v", fresh["user"])
			}
		})

		t.Run("refreshed past the update age", func(t *testing.T) {
			now = now.Add(25 * time.Hour) // past the 1-day update age, before the 7-day expiry
			s := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil))
			exp, _ := time.Parse(time.RFC3339, s["session"].(map[string]any)["expiresAt"].(string))
			if d := exp.Sub(now.Add(7 * 24 * time.Hour)); d < -time.Second || d > time.Second {
				t.Errorf("expiresAt %v, want now+7d (%v)", exp, now.Add(7*24*time.Hour))
			}
		})

		t.Run("disableRefresh keeps the expiry", func(t *testing.T) {
			before, _, _ := st.SessionAndUser(t.Context(), token)
			now = now.Add(25 * time.Hour)
			sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true&disableRefresh=true", nil))
			after, _, _ := st.SessionAndUser(t.Context(), token)
			if !after.ExpiresAt.Equal(before.ExpiresAt) {
				t.Errorf("expiry moved from %v to %v", before.ExpiresAt, after.ExpiresAt)
			}
		})

		t.Run("expired session is deleted and null", func(t *testing.T) {
			now = now.Add(8 * 24 * time.Hour)
			if s := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil)); s != nil {
				t.Fatalf("expired session returned: %v", s)
			}
			if _, _, err := st.SessionAndUser(t.Context(), token); err != store.ErrNotFound {
				t.Errorf("expired session still stored: %v", err)
			}
		})

		t.Run("bad query value", func(t *testing.T) {
			res := app.Client(t).Do("GET", "/api/auth/get-session?disableCookieCache=maybe", nil)
			if res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" {
				t.Errorf("%d %s", res.Status, res.Body)
			}
		})
	})
}

func TestGetSessionDontRememberIsNotRefreshed(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		now := time.Now().UTC()
		app.Auth.SetClock(func() time.Time { return now })
		app.SignUp(t, "ann@example.com", "password123")
		c := app.Client(t)
		res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123", "rememberMe": false})
		token := res.JSON(t)["token"].(string)
		before, _, _ := st.SessionAndUser(t.Context(), token)
		now = now.Add(2 * time.Hour)
		sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil))
		after, _, _ := st.SessionAndUser(t.Context(), token)
		if !after.ExpiresAt.Equal(before.ExpiresAt) {
			t.Errorf("a not-remembered session was extended")
		}
	})
}

func TestTamperedCookieIsNoSession(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		tok := c.Cookie("better-auth.session_token")
		res := app.Client(t).Do("GET", "/api/auth/get-session", nil, "Cookie", "better-auth.session_token="+strings.Replace(tok, tok[:4], "AAAA", 1))
		if sessionOf(t, res) != nil {
			t.Error("a cookie with a broken signature was accepted")
		}
	})
}

func jsonArray(b []byte, v any) error { return json.Unmarshal(b, v) }
