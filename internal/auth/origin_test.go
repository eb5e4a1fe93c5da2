package auth_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestOriginChecks(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"TRUSTED_ORIGINS": "https://partner.example"})
		c := app.SignUp(t, "ann@example.com", "password123")
		cases := []struct {
			name    string
			headers []string
			status  int
			message string
		}{
			{"cookie without origin", []string{"Origin", ""}, 403, "Missing or null Origin"},
			{"cookie with null origin", []string{"Origin", "null"}, 403, "Missing or null Origin"},
			{"cookie from an untrusted origin", []string{"Origin", "https://evil.example"}, 403, "Invalid origin"},
			{"cookie from a trusted origin", []string{"Origin", "https://partner.example"}, 200, ""},
			{"referer instead of origin", []string{"Origin", "", "Referer", app.URL + "/dashboard"}, 200, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := c.Do("POST", "/api/auth/send-verification-email", map[string]any{"email": "ann@example.com"}, tc.headers...)
				if res.Status != tc.status || (tc.message != "" && res.JSON(t)["message"] != tc.message) {
					t.Errorf("%d %s", res.Status, res.Body)
				}
			})
		}
		t.Run("cross-site form navigation without cookies", func(t *testing.T) {
			res := app.Client(t).Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"},
				"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate")
			if res.Status != http.StatusForbidden || res.JSON(t)["message"] != "Invalid request" {
				t.Errorf("%d %s", res.Status, res.Body)
			}
		})
		t.Run("cross-site fetch without cookies", func(t *testing.T) {
			res := app.Client(t).Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"},
				"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors")
			if res.Status != http.StatusForbidden || res.JSON(t)["message"] != "Invalid origin" {
				t.Errorf("%d %s", res.Status, res.Body)
			}
		})
	})
}

func TestOkErrorAndUnknown(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.Client(t)
	if res := c.Do("GET", "/api/auth/ok", nil); res.Status != 200 || res.JSON(t)["ok"] != true {
		t.Errorf("ok: %d %s", res.Status, res.Body)
	}
	res := c.Do("GET", "/api/auth/error?error=state_mismatch", nil)
	body := string(res.Body)
	if res.Status != 200 || !strings.Contains(body, "Better Auth") || !strings.Contains(body, "state_mismatch") || !strings.Contains(body, `<a href="/">Return to Application</a>`) {
		t.Errorf("error page: %d %s", res.Status, body)
	}
	if body := string(c.Do("GET", "/api/auth/error", nil).Body); !strings.Contains(body, "Unknown") {
		t.Error("default error code should be Unknown")
	}
	if body := string(c.Do("GET", "/api/auth/error?error=%3Cscript%3E", nil).Body); strings.Contains(body, "<script>") {
		t.Error("error code is not escaped")
	}
	if res := c.Do("GET", "/api/auth/nope", nil); res.Status != 404 || res.JSON(t)["code"] != "NOT_FOUND" {
		t.Errorf("unknown auth path: %d %s", res.Status, res.Body)
	}
	if res := c.Do("GET", "/api/anything", nil); res.Status != 404 || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("unknown api path: %d %v", res.Status, res.Header)
	}
}

func TestRateLimit(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_RATE_LIMIT_ENABLED": "true"})
	c := app.Client(t)
	var last testkit.Response
	for i := 0; i < 4; i++ {
		last = c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
	}
	if last.Status != http.StatusTooManyRequests || last.Header.Get("X-Retry-After") == "" || last.Header.Get("Retry-After") == "" {
		t.Fatalf("4th sign-in in 10 s: %d %v", last.Status, last.Header)
	}
	if res := c.Do("GET", "/api/auth/get-session", nil); res.Status != 200 {
		t.Errorf("get-session must not be limited: %d", res.Status)
	}
}

// Without cookies only the credential forms check fetch metadata (Better Auth's
// formCsrfMiddleware): a command-line client's fetch, which sends Sec-Fetch-Mode and no Origin,
// may ask for a device code.
func TestCookielessRequestsOutsideSignIn(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	res := app.Client(t).Do("POST", "/api/auth/device/code", map[string]any{"client_id": "cli"}, "Origin", "", "Sec-Fetch-Mode", "cors")
	if res.Status != http.StatusOK {
		t.Errorf("device/code from a fetch without Origin: %d %s", res.Status, res.Body)
	}
	res = app.Client(t).Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "a@example.com", "password": "password123"}, "Origin", "", "Sec-Fetch-Mode", "cors")
	if res.Status != http.StatusForbidden {
		t.Errorf("sign-in from a fetch without Origin: %d %s", res.Status, res.Body)
	}
}
