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

func TestVerifyEmail(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		now := time.Now().UTC()
		app.Auth.SetClock(func() time.Time { return now })
		signUp := app.Client(t).Do("POST", "/api/auth/sign-up/email", map[string]any{"name": "Ann", "email": "ann@example.com", "password": "password123", "callbackURL": "/dashboard"})
		if signUp.Status != 200 {
			t.Fatal(string(signUp.Body))
		}
		link := app.Inbox.Wait(t, "ann@example.com").Link(t, "/api/auth/verify-email")
		u, _ := url.Parse(link)
		path := u.RequestURI()
		if u.Query().Get("callbackURL") != "/dashboard" {
			t.Errorf("link callback %q", u.Query().Get("callbackURL"))
		}

		t.Run("invalid token without callback is 401", func(t *testing.T) {
			res := app.Client(t).Do("GET", "/api/auth/verify-email?token=garbage", nil)
			if res.Status != http.StatusUnauthorized || res.JSON(t)["code"] != "invalid_token" {
				t.Errorf("%d %s", res.Status, res.Body)
			}
		})
		t.Run("invalid token with callback redirects with error", func(t *testing.T) {
			res := app.Client(t).Do("GET", "/api/auth/verify-email?token=garbage&callbackURL=/dashboard", nil)
			if res.Status != http.StatusFound || res.Header.Get("Location") != "/dashboard?error=invalid_token" {
				t.Errorf("%d %v", res.Status, res.Header.Get("Location"))
			}
		})
		t.Run("untrusted callback is refused", func(t *testing.T) {
			res := app.Client(t).Do("GET", strings.Replace(path, "callbackURL=%2Fdashboard", "callbackURL=https%3A%2F%2Fevil.example", 1), nil)
			if res.Status != http.StatusForbidden || res.JSON(t)["message"] != "Invalid callbackURL" {
				t.Errorf("%d %s", res.Status, res.Body)
			}
		})
		t.Run("expired token", func(t *testing.T) {
			now = now.Add(2 * time.Hour)
			res := app.Client(t).Do("GET", path, nil)
			now = now.Add(-2 * time.Hour)
			if res.Status != http.StatusFound || !strings.Contains(res.Header.Get("Location"), "error=token_expired") {
				t.Errorf("%d %v", res.Status, res.Header.Get("Location"))
			}
		})
		t.Run("valid token verifies and signs in", func(t *testing.T) {
			c := app.Client(t)
			res := c.Do("GET", path, nil)
			if res.Status != http.StatusFound || res.Header.Get("Location") != "/dashboard" {
				t.Fatalf("%d %v %s", res.Status, res.Header, res.Body)
			}
			s := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil))
			if s == nil || s["user"].(map[string]any)["emailVerified"] != true {
				t.Errorf("not signed in as a verified user: %v", s)
			}
		})
	})
}

func TestSendVerificationEmail(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		app.Inbox.Wait(t, "ann@example.com")
		if res := c.Do("POST", "/api/auth/send-verification-email", map[string]any{"email": "other@example.com"}); res.Status != 400 || res.JSON(t)["code"] != "EMAIL_MISMATCH" {
			t.Errorf("someone else's email: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", "/api/auth/send-verification-email", map[string]any{"email": "ann@example.com"}); res.Status != 200 || res.JSON(t)["status"] != true {
			t.Errorf("own email: %d %s", res.Status, res.Body)
		}
		app.Inbox.Wait(t, "ann@example.com")
		// Anonymous callers always get status true, whether or not the account exists.
		if res := app.Client(t).Do("POST", "/api/auth/send-verification-email", map[string]any{"email": "nobody@example.com"}); res.Status != 200 {
			t.Errorf("unknown email: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", "/api/auth/send-verification-email", map[string]any{"email": "bad"}); res.Status != 400 {
			t.Errorf("invalid email: %d", res.Status)
		}
	})
}
