package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Issue 24 §2: the protocol's answers on the wire, each as Better Auth 1.7 gives it.

func TestUntrustedOriginRefusedWithoutCookies(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"TRUSTED_ORIGINS": "https://partner.example"})
	app.SignUp(t, "ann@example.com", "password123")
	signIn := map[string]any{"email": "ann@example.com", "password": "password123"}
	signUp := map[string]any{"email": "bob@example.com", "password": "password123", "name": "Bob"}
	for _, tc := range []struct {
		name, path string
		body       any
		header     []string
	}{
		{"sign-in from another site", "/api/auth/sign-in/email", signIn, []string{"Origin", "https://evil.example"}},
		{"sign-up from another site", "/api/auth/sign-up/email", signUp, []string{"Origin", "https://evil.example"}},
		{"sign-in with a foreign referer", "/api/auth/sign-in/email", signIn, []string{"Origin", "", "Referer", "https://evil.example/login"}},
		{"password reset request from another site", "/api/auth/request-password-reset", map[string]any{"email": "ann@example.com"}, []string{"Origin", "https://evil.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := app.Client(t).Do("POST", tc.path, tc.body, tc.header...)
			if res.Status != http.StatusForbidden || res.JSON(t)["message"] != "Invalid origin" || res.JSON(t)["code"] != "INVALID_ORIGIN" {
				t.Fatalf("%d %s", res.Status, res.Body)
			}
			if len(res.Header.Values("Set-Cookie")) != 0 {
				t.Errorf("refused request set cookies: %v", res.Header.Values("Set-Cookie"))
			}
		})
	}
	for _, tc := range []struct {
		name   string
		header []string
	}{
		{"a trusted origin", []string{"Origin", "https://partner.example"}},
		{"the app's own origin", nil},
		{"a server-to-server caller", []string{"Origin", ""}},
	} {
		t.Run("sign-in from "+tc.name, func(t *testing.T) {
			if res := app.Client(t).Do("POST", "/api/auth/sign-in/email", signIn, tc.header...); res.Status != http.StatusOK {
				t.Errorf("%d %s", res.Status, res.Body)
			}
		})
	}
}

func TestEncodedRedirectTargetsRefused(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_DELETE_USER_ENABLED": "true"})
	c := app.SignUp(t, "ann@example.com", "password123")
	evil := []string{"/%2F%2Fevil.example.com", "/%2f%2fevil.example.com", "/%5Cevil.example.com", "/%5cevil.example.com",
		"/%2F%5Cevil.example.com", "/%5C%2Fevil.example.com", "/\\%2Fevil.example.com", "/%2F/evil.example.com", "/a/..%2F%2Fevil.example.com"}
	for _, target := range evil {
		q := url.QueryEscape(target)
		cases := []struct {
			name, method, path string
			body               map[string]any
			message            string
		}{
			{"sign-up", "POST", "/api/auth/sign-up/email", map[string]any{"email": "x@example.com", "password": "password123", "name": "X", "callbackURL": target}, "Invalid callbackURL"},
			{"sign-in", "POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123", "callbackURL": target}, "Invalid callbackURL"},
			{"send-verification-email", "POST", "/api/auth/send-verification-email", map[string]any{"email": "ann@example.com", "callbackURL": target}, "Invalid callbackURL"},
			{"request-password-reset", "POST", "/api/auth/request-password-reset", map[string]any{"email": "ann@example.com", "redirectTo": target}, "Invalid redirectURL"},
			{"forget-password", "POST", "/api/auth/forget-password", map[string]any{"email": "ann@example.com", "redirectTo": target}, "Invalid redirectURL"},
			{"change-email", "POST", "/api/auth/change-email", map[string]any{"newEmail": "new@example.com", "callbackURL": target}, "Invalid callbackURL"},
			{"delete-user", "POST", "/api/auth/delete-user", map[string]any{"callbackURL": target}, "Invalid callbackURL"},
			{"verify-email", "GET", "/api/auth/verify-email?token=x&callbackURL=" + q, nil, "Invalid callbackURL"},
			{"reset-password callback", "GET", "/api/auth/reset-password/x?callbackURL=" + q, nil, "Invalid callbackURL"},
			{"delete-user callback", "GET", "/api/auth/delete-user/callback?token=x&callbackURL=" + q, nil, "Invalid callbackURL"},
		}
		for _, tc := range cases {
			var body any
			if tc.body != nil {
				body = tc.body
			}
			res := c.Do(tc.method, tc.path, body)
			if res.Status != http.StatusForbidden || res.JSON(t)["message"] != tc.message {
				t.Errorf("%s with %s: %d %s", tc.name, target, res.Status, res.Body)
			}
		}
	}
	for _, ok := range []string{"/dashboard", "/a%20b?next=%2F%2Fx", "/search#%5C"} {
		if !app.Auth.SafeURL(ok) {
			t.Errorf("%s refused", ok)
		}
	}
	for _, bad := range append(evil, "//evil.example.com", "/\\evil.example.com", "https://evil.example.com/", "javascript:alert(1)", "/a\x7fb", "/a\u0085b") {
		if app.Auth.SafeURL(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := app.Auth.CheckURLs("", "", "/%2F%2Fevil.example.com", ""); err == nil || err.Message != "Invalid errorCallbackURL" {
		t.Errorf("errorCallbackURL: %v", err)
	}
	if err := app.Auth.CheckURLs("", "", "", "/%5Cevil.example.com"); err == nil || err.Message != "Invalid newUserCallbackURL" {
		t.Errorf("newUserCallbackURL: %v", err)
	}
}

func TestDeclaredContentTypes(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	form := "application/x-www-form-urlencoded"
	res := app.Client(t).Do("POST", "/api/auth/sign-up/email", "name=Ann&email=ann%40example.com&password=password123", "Content-Type", form)
	if res.Status != http.StatusOK || res.JSON(t)["user"].(map[string]any)["email"] != "ann@example.com" {
		t.Fatalf("form sign-up: %d %s", res.Status, res.Body)
	}
	signedIn := app.Client(t)
	res = signedIn.Do("POST", "/api/auth/sign-in/email", "email=ann%40example.com&password=password123", "Content-Type", form+"; charset=UTF-8")
	if res.Status != http.StatusOK || signedIn.Cookie("better-auth.session_token") == "" {
		t.Fatalf("form sign-in: %d %s", res.Status, res.Body)
	}
	if res := app.Client(t).Do("POST", "/api/auth/sign-in/email", "email=ann%40example.com&password=wrong", "Content-Type", form); res.Status != http.StatusUnauthorized {
		t.Errorf("form sign-in with a wrong password: %d %s", res.Status, res.Body)
	}
	for _, tc := range []struct{ path, ctype, message string }{
		{"/api/auth/update-user", form, `Content-Type "application/x-www-form-urlencoded" is not allowed. Allowed types: application/json`},
		{"/api/auth/update-user", "text/plain", `Content-Type "text/plain" is not allowed. Allowed types: application/json`},
		{"/api/auth/sign-out", "text/plain;charset=UTF-8", `Content-Type "text/plain;charset=UTF-8" is not allowed. Allowed types: application/json`},
		{"/api/auth/sign-in/email", "text/plain", `Content-Type "text/plain" is not allowed. Allowed types: application/x-www-form-urlencoded, application/json`},
		{"/api/auth/request-password-reset", "multipart/form-data; boundary=x", `Content-Type "multipart/form-data; boundary=x" is not allowed. Allowed types: application/json`},
		{"/api/auth/request-password-reset", "", "Content-Type is required. Allowed types: application/json"},
	} {
		res := signedIn.Do("POST", tc.path, `{"name":"x","email":"ann@example.com"}`, "Content-Type", tc.ctype)
		if res.Status != http.StatusUnsupportedMediaType || res.JSON(t)["code"] != "UNSUPPORTED_MEDIA_TYPE" || res.JSON(t)["message"] != tc.message {
			t.Errorf("%s as %q: %d %s", tc.path, tc.ctype, res.Status, res.Body)
		}
	}
	if res := signedIn.Do("POST", "/api/auth/update-user", `{"name":"Ann B"}`, "Content-Type", "application/json; charset=utf-8"); res.Status != http.StatusOK {
		t.Errorf("JSON with a charset: %d %s", res.Status, res.Body)
	}
	if res := signedIn.Do("POST", "/api/auth/sign-out", nil, "Content-Type", ""); res.Status != http.StatusOK {
		t.Errorf("sign-out without a body or type: %d %s", res.Status, res.Body)
	}
}

func TestMalformedAndNonObjectBodies(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.Client(t)
	for _, body := range []string{`{"email":`, `{"email": "a@b.co",}`, `nope`, `{"a":1}{"b":2}`} {
		res := c.Do("POST", "/api/auth/sign-in/email", body)
		if res.Status != 400 || res.JSON(t)["code"] != "BAD_REQUEST" || res.JSON(t)["message"] != "Invalid JSON in request body" {
			t.Errorf("%s: %d %s", body, res.Status, res.Body)
		}
	}
	for body, kind := range map[string]string{`[]`: "array", `[{"email":"a@b.co"}]`: "array", `"x"`: "string", `5`: "number", `null`: "null", `true`: "boolean"} {
		res := c.Do("POST", "/api/auth/sign-in/email", body)
		msg, _ := res.JSON(t)["message"].(string)
		if res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" || msg != "[body] Invalid input: expected object, received "+kind {
			t.Errorf("%s: %d %s", body, res.Status, res.Body)
		}
	}
}

func TestRequiredQueryParameters(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.Client(t)
	res := c.Do("GET", "/api/auth/verify-email", nil)
	if msg, _ := res.JSON(t)["message"].(string); res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" || !strings.HasPrefix(msg, "[query.token]") {
		t.Errorf("verify-email without token: %d %s", res.Status, res.Body)
	}
	res = c.Do("GET", "/api/auth/verify-email?callbackURL=%2Fdashboard", nil)
	if res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" {
		t.Errorf("verify-email with only a callback: %d %s", res.Status, res.Body)
	}
	res = c.Do("GET", "/api/auth/reset-password/sometoken", nil)
	if msg, _ := res.JSON(t)["message"].(string); res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" || !strings.HasPrefix(msg, "[query.callbackURL]") {
		t.Errorf("reset-password callback without callbackURL: %d %s", res.Status, res.Body)
	}
	res = c.Do("GET", "/api/auth/reset-password/sometoken?callbackURL=%2Freset", nil)
	if res.Status != http.StatusFound || res.Header.Get("Location") != app.URL+"/reset?error=INVALID_TOKEN" {
		t.Errorf("reset-password callback with an unknown token: %d %s", res.Status, res.Header.Get("Location"))
	}
}

func TestUnlinkLastAccountBeforeLookup(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "ann@example.com", "password123")
	for _, body := range []map[string]any{{"providerId": "github"}, {"providerId": "credential", "accountId": "someone-elses"}, {"providerId": "credential"}} {
		res := c.Do("POST", "/api/auth/unlink-account", body)
		if res.Status != 400 || res.JSON(t)["code"] != "FAILED_TO_UNLINK_LAST_ACCOUNT" || res.JSON(t)["message"] != "You can't unlink your last account" {
			t.Errorf("%v: %d %s", body, res.Status, res.Body)
		}
	}
}

func TestDeleteUserCallbackWithoutSession(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_DELETE_USER_ENABLED": "true"})
	res := app.Client(t).Do("GET", "/api/auth/delete-user/callback?token=abc", nil)
	if res.Status != http.StatusNotFound || res.JSON(t)["code"] != "FAILED_TO_GET_USER_INFO" || res.JSON(t)["message"] != "Failed to get user info" {
		t.Errorf("%d %s", res.Status, res.Body)
	}
	res = app.Client(t).Do("GET", "/api/auth/delete-user/callback", nil)
	if msg, _ := res.JSON(t)["message"].(string); res.Status != 400 || !strings.HasPrefix(msg, "[query.token]") {
		t.Errorf("without a token: %d %s", res.Status, res.Body)
	}
}

func TestRevokeCurrentSessionExpiresCookies(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "ann@example.com", "password123")
	other := app.Client(t)
	other.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
	otherToken := sessionOf(t, other.Do("GET", "/api/auth/get-session", nil))["session"].(map[string]any)["token"].(string)
	res := c.Do("POST", "/api/auth/revoke-session", map[string]any{"token": otherToken})
	if res.Status != 200 || len(res.Header.Values("Set-Cookie")) != 0 {
		t.Errorf("revoking another session touched this one's cookies: %d %v", res.Status, res.Header.Values("Set-Cookie"))
	}
	own := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil))["session"].(map[string]any)["token"].(string)
	res = c.Do("POST", "/api/auth/revoke-session", map[string]any{"token": own})
	if res.Status != 200 {
		t.Fatalf("%d %s", res.Status, res.Body)
	}
	expired := map[string]bool{}
	for _, ck := range setCookies(res) {
		if ck.MaxAge < 0 {
			expired[ck.Name] = true
		}
	}
	if !expired["better-auth.session_token"] || !expired["better-auth.session_data"] {
		t.Errorf("cookies not expired: %v", res.Header.Values("Set-Cookie"))
	}
	if c.Cookie("better-auth.session_token") != "" || c.Cookie("better-auth.session_data") != "" {
		t.Error("the browser still holds the revoked session's cookies")
	}
	if s := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil)); s != nil {
		t.Errorf("still signed in: %v", s)
	}
}

func TestSessionDataCookieLeftOutWhenTooBig(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "ann@example.com", "password123")
	if c.Cookie("better-auth.session_data") == "" {
		t.Fatal("a normal sign-in has no session-data cookie")
	}
	// An adopted Better Auth database may hold names far longer than our own forms allow.
	long := strings.Repeat("n", 3500)
	if _, err := app.Store.DB().Exec(`update "user" set "name" = '` + long + `' where "email" = 'ann@example.com'`); err != nil {
		t.Fatal(err)
	}
	fresh := app.Client(t)
	res := fresh.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
	if res.Status != 200 {
		t.Fatalf("%d %s", res.Status, res.Body)
	}
	for _, ck := range setCookies(res) {
		if ck.Name == "better-auth.session_data" && ck.MaxAge >= 0 {
			t.Errorf("session-data cookie of %d bytes set", len(ck.Value))
		}
	}
	if fresh.Cookie("better-auth.session_token") == "" {
		t.Fatal("no session cookie")
	}
	got := sessionOf(t, fresh.Do("GET", "/api/auth/get-session", nil))
	if got == nil || got["user"].(map[string]any)["name"] != long {
		t.Errorf("get-session without the cache: %v", got != nil)
	}
}

func setCookies(res testkit.Response) []*http.Cookie {
	return (&http.Response{Header: res.Header}).Cookies()
}
