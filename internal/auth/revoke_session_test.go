package auth_test

import (
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestSessionsListAndRevoke(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		second := app.Client(t)
		second.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
		mallory := app.SignUp(t, "mallory@example.com", "password123")
		var list []map[string]any
		res := c.Do("GET", "/api/auth/list-sessions", nil)
		if err := jsonArray(res.Body, &list); err != nil || len(list) != 2 {
			t.Fatalf("list: %s", res.Body)
		}
		secondToken := sessionOf(t, second.Do("GET", "/api/auth/get-session", nil))["session"].(map[string]any)["token"].(string)
		// As Better Auth: status true, and nothing revoked (checked below: the owner still revokes it).
		if res := mallory.Do("POST", "/api/auth/revoke-session", map[string]any{"token": secondToken}); res.Status != 200 {
			t.Errorf("revoking someone else's session: %d %s", res.Status, res.Body)
		}
		if s := sessionOf(t, second.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s == nil {
			t.Fatal("someone else revoked the session")
		}
		if res := c.Do("POST", "/api/auth/revoke-session", map[string]any{"token": secondToken}); res.Status != 200 {
			t.Errorf("revoke own: %d %s", res.Status, res.Body)
		}
		if s := sessionOf(t, second.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s != nil {
			t.Error("revoked session still valid")
		}
		if res := c.Do("POST", "/api/auth/revoke-sessions", "{}"); res.Status != 200 {
			t.Errorf("revoke all: %d", res.Status)
		}
		if s := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s != nil {
			t.Error("revoke-sessions kept the current session")
		}
	})
}
