package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

const resetMsg = "If this email exists in our system, check your email for the reset link"

func TestPasswordResetFlow(t *testing.T) {
	for _, path := range []string{"/api/auth/request-password-reset", "/api/auth/forget-password"} {
		t.Run(strings.TrimPrefix(path, "/api/auth/"), func(t *testing.T) {
			testkit.EachDB(t, func(t *testing.T, st *store.Store) {
				app := testkit.Server(t, st, map[string]string{"AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET": "true"})
				old := app.SignUp(t, "ann@example.com", "password123")

				// Unknown and known emails get the same answer.
				for _, email := range []string{"nobody@example.com", "ann@example.com"} {
					res := app.Client(t).Do("POST", path, map[string]any{"email": email, "redirectTo": "/sign-in?view=reset"})
					if res.Status != 200 || res.JSON(t)["message"] != resetMsg || res.JSON(t)["status"] != true {
						t.Fatalf("%s: %d %s", email, res.Status, res.Body)
					}
				}
				link, _ := url.Parse(app.Inbox.WaitLink(t, "ann@example.com", "/api/auth/reset-password/"))
				token := strings.TrimPrefix(link.Path, "/api/auth/reset-password/")
				if len(token) != 24 {
					t.Errorf("token %q is not 24 characters", token)
				}
				c := app.Client(t)
				res := c.Do("GET", link.RequestURI(), nil)
				if res.Status != http.StatusFound || res.Header.Get("Location") != app.URL+"/sign-in?token="+token+"&view=reset" {
					t.Fatalf("callback: %d %q", res.Status, res.Header.Get("Location"))
				}
				if res := c.Do("POST", "/api/auth/reset-password", map[string]any{"newPassword": "short", "token": token}); res.JSON(t)["code"] != "PASSWORD_TOO_SHORT" {
					t.Errorf("short password: %s", res.Body)
				}
				if res := c.Do("POST", "/api/auth/reset-password", map[string]any{"newPassword": "new-password-1", "token": token}); res.Status != 200 || res.JSON(t)["status"] != true {
					t.Fatalf("reset: %d %s", res.Status, res.Body)
				}
				if res := c.Do("POST", "/api/auth/reset-password", map[string]any{"newPassword": "new-password-2", "token": token}); res.Status != 400 || res.JSON(t)["code"] != "INVALID_TOKEN" {
					t.Errorf("token reused: %d %s", res.Status, res.Body)
				}
				if res := c.Do("GET", link.RequestURI(), nil); !strings.HasSuffix(res.Header.Get("Location"), "error=INVALID_TOKEN&view=reset") {
					t.Errorf("used link should redirect with INVALID_TOKEN: %q", res.Header.Get("Location"))
				}
				if res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"}); res.Status != 401 {
					t.Errorf("old password still works: %d", res.Status)
				}
				if res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "new-password-1"}); res.Status != 200 {
					t.Errorf("new password refused: %d %s", res.Status, res.Body)
				}
				if s := sessionOf(t, old.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s != nil {
					t.Error("the old session survived a reset with revocation on")
				}
			})
		})
	}
}

func TestPasswordResetRejects(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		now := time.Now().UTC()
		app.Auth.SetClock(func() time.Time { return now })
		app.SignUp(t, "ann@example.com", "password123")
		c := app.Client(t)
		if res := c.Do("POST", "/api/auth/request-password-reset", map[string]any{"email": "ann@example.com", "redirectTo": "https://evil.example"}); res.Status != 403 || res.JSON(t)["message"] != "Invalid redirectURL" {
			t.Errorf("untrusted redirectTo: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", "/api/auth/reset-password", map[string]any{"newPassword": "new-password-1"}); res.JSON(t)["code"] != "INVALID_TOKEN" {
			t.Errorf("missing token: %s", res.Body)
		}
		if res := c.Do("POST", "/api/auth/reset-password", map[string]any{"newPassword": "new-password-1", "token": "nope"}); res.JSON(t)["code"] != "INVALID_TOKEN" {
			t.Errorf("unknown token: %s", res.Body)
		}
		c.Do("POST", "/api/auth/request-password-reset", map[string]any{"email": "ann@example.com"})
		link, _ := url.Parse(app.Inbox.WaitLink(t, "ann@example.com", "/reset-password/"))
		token := strings.TrimPrefix(link.Path, "/api/auth/reset-password/")
		now = now.Add(61 * time.Minute)
		if res := c.Do("POST", "/api/auth/reset-password", map[string]any{"newPassword": "new-password-1", "token": token}); res.JSON(t)["code"] != "INVALID_TOKEN" {
			t.Errorf("expired token accepted: %s", res.Body)
		}
	})
}
