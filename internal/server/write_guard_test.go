package server_test

import (
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// The theme server functions change a cookie: they take the auth routes' origin check and
// only JSON bodies (issue 24 §3).
func TestThemeServerFunctionChecksOriginAndMediaType(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "ann@example.com", "password123")
	set := "/_serverFn/setTheme?createServerFn"
	for _, tc := range []struct {
		name   string
		body   any
		header []string
		status int
	}{
		{"from another site", map[string]string{"data": "dark"}, []string{"Origin", "https://evil.example"}, 403},
		{"without an origin", map[string]string{"data": "dark"}, []string{"Origin", ""}, 403},
		{"as a form", "data=dark", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415},
		{"as text", `{"data":"dark"}`, []string{"Content-Type", "text/plain"}, 415},
	} {
		res := c.Do("POST", set, tc.body, tc.header...)
		if res.Status != tc.status || c.Cookie("theme") == "dark" {
			t.Errorf("%s: %d %s (theme cookie %q)", tc.name, res.Status, res.Body, c.Cookie("theme"))
		}
	}
	anon := app.Client(t)
	if res := anon.Do("POST", set, map[string]string{"data": "dark"}, "Origin", "https://evil.example"); res.Status != 403 || anon.Cookie("theme") != "" {
		t.Errorf("from another site without cookies: %d %s", res.Status, res.Body)
	}
	if res := c.Do("POST", set, map[string]string{"data": "dark"}); res.Status != 200 || c.Cookie("theme") != "dark" {
		t.Errorf("from the app: %d %s", res.Status, res.Body)
	}
	if res := app.Client(t).Do("POST", "/_serverFn/getTheme?createServerFn", map[string]any{}); res.Status != 200 {
		t.Errorf("getTheme from the app: %d %s", res.Status, res.Body)
	}
}
