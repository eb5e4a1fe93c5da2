package trends_test

import (
	"net/http"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Writes outside /api/auth pass the same origin check as the auth routes, and take only the
// media type they declare (issue 24 §3).
func TestWritesCheckOriginAndMediaType(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"TRUSTED_ORIGINS": "https://partner.example"})
	c := app.SignUp(t, "ann@example.com", "password123")
	ws := personal(t, c)
	watch := "/api/workspaces/" + ws + "/watchlist"
	item := map[string]string{"kind": "term", "value": "yoga mat"}
	for _, tc := range []struct {
		name, method, path string
		body               any
		header             []string
		status             int
		code               string
	}{
		{"watchlist add from another site", "POST", watch, item, []string{"Origin", "https://evil.example"}, 403, "INVALID_ORIGIN"},
		{"watchlist add with a foreign referer", "POST", watch, item, []string{"Origin", "", "Referer", "https://evil.example/x"}, 403, "INVALID_ORIGIN"},
		{"watchlist add without an origin", "POST", watch, item, []string{"Origin", ""}, 403, "MISSING_OR_NULL_ORIGIN"},
		{"watchlist remove from another site", "DELETE", watch + "/1", nil, []string{"Origin", "https://evil.example"}, 403, "INVALID_ORIGIN"},
		{"period delete from another site", "DELETE", "/api/trends/" + ws + "/datasets/1/periods/2026-04-05", nil, []string{"Origin", "https://evil.example"}, 403, "INVALID_ORIGIN"},
		{"upload from another site", "POST", "/api/trends/" + ws + "/imports", "--x--\r\n", []string{"Origin", "https://evil.example", "Content-Type", "multipart/form-data; boundary=x"}, 403, "INVALID_ORIGIN"},
		{"alert settings from another site", "PUT", "/api/alerts/settings", map[string]any{"frequency": "off", "threshold": 30}, []string{"Origin", "https://evil.example"}, 403, "INVALID_ORIGIN"},
		{"watchlist add as a form", "POST", watch, "kind=term&value=yoga", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"watchlist add as text", "POST", watch, `{"kind":"term","value":"yoga"}`, []string{"Content-Type", "text/plain"}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"alert settings as text", "PUT", "/api/alerts/settings", `{"frequency":"off","threshold":30}`, []string{"Content-Type", "text/plain"}, 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"upload as JSON", "POST", "/api/trends/" + ws + "/imports", `{}`, nil, 415, "UNSUPPORTED_MEDIA_TYPE"},
	} {
		res := c.Do(tc.method, tc.path, tc.body, tc.header...)
		if res.Status != tc.status || res.JSON(t)["code"] != tc.code {
			t.Errorf("%s: %d %s", tc.name, res.Status, res.Body)
		}
	}
	if res := c.Do("POST", watch, item, "Origin", "https://partner.example"); res.Status != http.StatusCreated {
		t.Errorf("from a trusted origin: %d %s", res.Status, res.Body)
	}
	if res := c.Do("POST", watch, map[string]string{"kind": "term", "value": "desk lamp"}, "Content-Type", "application/json; charset=utf-8"); res.Status != http.StatusCreated {
		t.Errorf("from the app: %d %s", res.Status, res.Body)
	}
	res := c.Do("GET", watch, nil, "Origin", "https://evil.example")
	if res.Status != http.StatusOK {
		t.Errorf("a read is not origin-checked: %d %s", res.Status, res.Body)
	}
}
