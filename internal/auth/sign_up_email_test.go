package auth_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestSignUpEmail(t *testing.T) {
	cases := []struct {
		name       string
		body       any
		wantStatus int
		wantCode   string
		wantMsg    string
	}{
		{"valid", map[string]any{"name": "Ann", "email": "Ann@Example.COM", "password": "password123"}, 200, "", ""},
		{"duplicate email", map[string]any{"name": "Ann", "email": "taken@example.com", "password": "password123"}, 422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "User already exists. Use another email."},
		{"invalid email", map[string]any{"name": "Ann", "email": "not-an-email", "password": "password123"}, 400, "VALIDATION_ERROR", "[body.email] Invalid email address"},
		{"password too short", map[string]any{"name": "Ann", "email": "a@example.com", "password": "short"}, 400, "PASSWORD_TOO_SHORT", "Password too short"},
		{"password too long", map[string]any{"name": "Ann", "email": "a@example.com", "password": strings.Repeat("x", 129)}, 400, "PASSWORD_TOO_LONG", "Password too long"},
		{"missing name", map[string]any{"email": "a@example.com", "password": "password123"}, 400, "VALIDATION_ERROR", "[body.name] Invalid input: expected string, received undefined"},
		{"wrong type", map[string]any{"name": "Ann", "email": 42, "password": "password123"}, 400, "VALIDATION_ERROR", "[body.email] Invalid input: expected string, received number"},
		{"malformed json", `{"name":`, 400, "BAD_REQUEST", "Invalid JSON in request body"},
		{"oversized email", map[string]any{"name": "Ann", "email": strings.Repeat("a", 300) + "@example.com", "password": "password123"}, 400, "VALIDATION_ERROR", "[body.email] Too big: expected string to have <=254 characters; [body.email] Invalid email address"},
		{"oversized body", `{"name":"` + strings.Repeat("x", 70<<10) + `"}`, 413, "PAYLOAD_TOO_LARGE", "Request body is too large"},
		{"untrusted callback", map[string]any{"name": "Ann", "email": "b@example.com", "password": "password123", "callbackURL": "https://evil.example/x"}, 403, "INVALID_CALLBACK_URL", "Invalid callbackURL"},
		{"protocol-relative callback", map[string]any{"name": "Ann", "email": "b@example.com", "password": "password123", "callbackURL": "//evil.example"}, 403, "INVALID_CALLBACK_URL", "Invalid callbackURL"},
	}
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		app.SignUp(t, "taken@example.com", "password123")
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				c := app.Client(t)
				res := c.Do("POST", "/api/auth/sign-up/email", tc.body)
				if res.Status != tc.wantStatus {
					t.Fatalf("status %d, want %d: %s", res.Status, tc.wantStatus, res.Body)
				}
				if tc.wantStatus != 200 {
					body := res.JSON(t)
					if body["code"] != tc.wantCode || body["message"] != tc.wantMsg {
						t.Errorf("got %v / %v, want %s / %s", body["code"], body["message"], tc.wantCode, tc.wantMsg)
					}
					return
				}
				body := res.JSON(t)
				user := body["user"].(map[string]any)
				if user["email"] != "ann@example.com" || user["emailVerified"] != false || body["token"] == nil {
					t.Errorf("unexpected body %s", res.Body)
				}
				if c.Cookie("better-auth.session_token") == "" || c.Cookie("better-auth.session_data") == "" {
					t.Error("session cookies not set")
				}
				mail := app.Inbox.Wait(t, "ann@example.com")
				if !strings.Contains(mail.Data, "Verify your email") {
					t.Errorf("verification mail missing its subject:\n%s", mail.Data)
				}
				mail.Link(t, "/api/auth/verify-email?token=")
			})
		}
	})
}

func TestSignUpWithRequiredVerificationDoesNotSignIn(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"AUTH_REQUIRE_EMAIL_VERIFICATION": "true"})
		c := app.Client(t)
		res := c.Do("POST", "/api/auth/sign-up/email", map[string]any{"name": "Ann", "email": "ann@example.com", "password": "password123"})
		if res.Status != http.StatusOK || res.JSON(t)["token"] != nil || c.Cookie("better-auth.session_token") != "" {
			t.Fatalf("want 200 with token null and no cookie, got %d %s", res.Status, res.Body)
		}
		res = c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
		if res.Status != http.StatusForbidden || res.JSON(t)["code"] != "EMAIL_NOT_VERIFIED" {
			t.Fatalf("unverified sign-in: %d %s", res.Status, res.Body)
		}
		app.Inbox.Wait(t, "ann@example.com") // sign-up mail
		link := app.Inbox.Wait(t, "ann@example.com").Link(t, "verify-email")
		res = c.Do("GET", strings.TrimPrefix(link, app.URL), nil)
		if res.Status != http.StatusFound || res.Header.Get("Location") != "/" {
			t.Fatalf("verify: %d %v", res.Status, res.Header)
		}
		res = c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
		if res.Status != http.StatusOK {
			t.Fatalf("verified sign-in: %d %s", res.Status, res.Body)
		}
	})
}
