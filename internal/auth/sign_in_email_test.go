package auth_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestSignInEmail(t *testing.T) {
	cases := []struct {
		name       string
		body       any
		wantStatus int
		wantCode   string
	}{
		{"right password, mixed-case email", map[string]any{"email": "ANN@example.com", "password": "password123"}, 200, ""},
		{"wrong password", map[string]any{"email": "ann@example.com", "password": "password124"}, 401, "INVALID_EMAIL_OR_PASSWORD"},
		{"unknown email", map[string]any{"email": "nobody@example.com", "password": "password123"}, 401, "INVALID_EMAIL_OR_PASSWORD"},
		{"invalid email", map[string]any{"email": "nope", "password": "password123"}, 400, "INVALID_EMAIL"},
		{"missing password", map[string]any{"email": "ann@example.com"}, 400, "VALIDATION_ERROR"},
		{"password as number", map[string]any{"email": "ann@example.com", "password": 12345678}, 400, "VALIDATION_ERROR"},
		{"rememberMe as string", map[string]any{"email": "ann@example.com", "password": "password123", "rememberMe": "no"}, 400, "VALIDATION_ERROR"},
		{"body is an array", `[]`, 400, "VALIDATION_ERROR"},
	}
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		app.SignUp(t, "ann@example.com", "password123")
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := app.Client(t).Do("POST", "/api/auth/sign-in/email", tc.body)
				if res.Status != tc.wantStatus {
					t.Fatalf("status %d, want %d: %s", res.Status, tc.wantStatus, res.Body)
				}
				body := res.JSON(t)
				if tc.wantCode != "" && body["code"] != tc.wantCode {
					t.Errorf("code %v, want %s", body["code"], tc.wantCode)
				}
				if tc.wantStatus == 200 && (body["redirect"] != false || body["token"] == "" || body["user"].(map[string]any)["email"] != "ann@example.com") {
					t.Errorf("body %s", res.Body)
				}
			})
		}
	})
}

func TestSignInRememberMe(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		app.SignUp(t, "ann@example.com", "password123")
		c := app.Client(t)
		res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123", "rememberMe": false})
		if res.Status != 200 {
			t.Fatal(res.Status, string(res.Body))
		}
		var token, dont string
		for _, sc := range res.Header.Values("Set-Cookie") {
			if strings.HasPrefix(sc, "better-auth.session_token=") {
				token = sc
			}
			if strings.HasPrefix(sc, "better-auth.dont_remember=") {
				dont = sc
			}
		}
		if token == "" || strings.Contains(token, "Max-Age") || !strings.Contains(token, "HttpOnly") || !strings.Contains(token, "SameSite=Lax") {
			t.Errorf("session cookie should last the browser session: %q", token)
		}
		if dont == "" {
			t.Error("dont_remember cookie missing")
		}
		res = c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123", "callbackURL": "/dashboard"})
		if res.JSON(t)["redirect"] != true || res.JSON(t)["url"] != "/dashboard" || res.Header.Get("Location") != "/dashboard" {
			t.Errorf("callbackURL: %s %v", res.Body, res.Header)
		}
		for _, sc := range res.Header.Values("Set-Cookie") {
			if strings.HasPrefix(sc, "better-auth.session_token=") && !strings.Contains(sc, "Max-Age=604800") {
				t.Errorf("remembered session cookie should last 7 days: %q", sc)
			}
		}
	})
}

func TestSignOut(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		if res := c.Do("POST", "/api/auth/sign-out", "{}"); res.Status != http.StatusOK || res.JSON(t)["success"] != true {
			t.Fatalf("sign-out: %d %s", res.Status, res.Body)
		}
		if c.Cookie("better-auth.session_token") != "" || c.Cookie("better-auth.session_data") != "" {
			t.Error("cookies not cleared")
		}
		if res := c.Do("GET", "/api/auth/get-session", nil); string(res.Body) != "null\n" {
			t.Errorf("session after sign-out: %s", res.Body)
		}
	})
}
