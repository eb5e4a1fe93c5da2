package auth_test

import (
	"net/url"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestChangeEmail(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		app.SignUp(t, "taken@example.com", "password123")
		for body, want := range map[string]string{`{"newEmail":"ann@example.com"}`: "Email is the same", `{"newEmail":"taken@example.com"}`: "Couldn't update your email", `{"newEmail":"nope"}`: "Invalid email"} {
			if res := c.Do("POST", "/api/auth/change-email", body); res.JSON(t)["message"] != want {
				t.Errorf("%s: %s, want %s", body, res.Body, want)
			}
		}
		// Verified users confirm on the current address first.
		verify, _ := url.Parse(app.Inbox.Wait(t, "ann@example.com").Link(t, "verify-email"))
		c.Do("GET", verify.RequestURI(), nil)
		if res := c.Do("POST", "/api/auth/change-email", map[string]any{"newEmail": "ann2@example.com", "callbackURL": "/dashboard"}); res.Status != 200 {
			t.Fatalf("change: %d %s", res.Status, res.Body)
		}
		approve, _ := url.Parse(app.Inbox.Wait(t, "ann@example.com").Link(t, "verify-email"))
		if res := c.Do("GET", approve.RequestURI(), nil); res.Status != 302 {
			t.Fatalf("approve: %d %s", res.Status, res.Body)
		}
		confirm, _ := url.Parse(app.Inbox.Wait(t, "ann2@example.com").Link(t, "verify-email"))
		c.Do("GET", confirm.RequestURI(), nil)
		u := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil))["user"].(map[string]any)
		if u["email"] != "ann2@example.com" || u["emailVerified"] != true {
			t.Errorf("after change: %v", u)
		}
	})
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_CHANGE_EMAIL_ENABLED": "false"})
	if res := app.SignUp(t, "a@example.com", "password123").Do("POST", "/api/auth/change-email", map[string]any{"newEmail": "b@example.com"}); res.JSON(t)["message"] != "Change email is disabled" {
		t.Errorf("disabled: %s", res.Body)
	}
}
