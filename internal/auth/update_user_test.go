package auth_test

import (
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestUpdateUserAndChangePassword(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		if res := c.Do("POST", "/api/auth/update-user", map[string]any{"name": "Ann B", "image": "https://img.example/a.png"}); res.Status != 200 {
			t.Fatalf("update: %d %s", res.Status, res.Body)
		}
		u := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil))["user"].(map[string]any)
		if u["name"] != "Ann B" || u["image"] != "https://img.example/a.png" {
			t.Errorf("cache cookie not refreshed after update: %v", u)
		}
		if res := c.Do("POST", "/api/auth/update-user", map[string]any{}); res.Status != 400 {
			t.Errorf("empty update: %d", res.Status)
		}
		if res := c.Do("POST", "/api/auth/update-user", map[string]any{"email": "x@example.com"}); res.Status != 400 {
			t.Errorf("email via update-user: %d", res.Status)
		}
		other := app.Client(t)
		other.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
		if res := c.Do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "wrong-pass", "newPassword": "password456"}); res.JSON(t)["code"] != "INVALID_PASSWORD" {
			t.Errorf("wrong current password: %s", res.Body)
		}
		res := c.Do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "password123", "newPassword": "password456", "revokeOtherSessions": true})
		if res.Status != 200 || res.JSON(t)["token"] == nil {
			t.Fatalf("change: %d %s", res.Status, res.Body)
		}
		if s := sessionOf(t, other.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s != nil {
			t.Error("the other session survived revokeOtherSessions")
		}
		if s := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s == nil {
			t.Error("the caller lost its session")
		}
		if res := app.Client(t).Do("POST", "/api/auth/update-user", map[string]any{"name": "x"}); res.Status != 401 {
			t.Errorf("anonymous update: %d", res.Status)
		}
	})
}
