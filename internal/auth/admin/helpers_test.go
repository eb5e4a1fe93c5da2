package admin_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// world is a running server with one admin (role admin) and one plain user, both signed in.
type world struct {
	app                 *testkit.App
	st                  *store.Store
	admin, user         *testkit.Client
	adminID, userID     string
	adminMail, userMail string
}

const pw = "password123"

func newWorld(t *testing.T, st *store.Store, env map[string]string) *world {
	t.Helper()
	app := testkit.Server(t, st, env)
	w := &world{app: app, st: st, adminMail: "admin@example.com", userMail: "user@example.com"}
	w.admin = app.SignUp(t, w.adminMail, pw)
	w.user = app.SignUp(t, w.userMail, pw)
	w.adminID = sessionUser(t, w.admin)["id"].(string)
	w.userID = sessionUser(t, w.user)["id"].(string)
	setRole(t, st, w.adminID, "admin")
	return w
}

// sessionUser reads the caller's user from the database (no cookie cache).
func sessionUser(t *testing.T, c *testkit.Client) map[string]any {
	t.Helper()
	res := c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)
	if res.Status != http.StatusOK || string(res.Body) == "null\n" {
		t.Fatalf("get-session: %d %s", res.Status, res.Body)
	}
	return res.JSON(t)["user"].(map[string]any)
}

func setRole(t *testing.T, st *store.Store, id, role string) {
	t.Helper()
	if _, err := st.DB().Exec(st.Rebind(`update "user" set "role" = ? where "id" = ?`), role, id); err != nil {
		t.Fatal(err)
	}
}

func verifyEmail(t *testing.T, st *store.Store, id string) {
	t.Helper()
	v := any(true)
	if !st.Postgres() {
		v = 1
	}
	if _, err := st.DB().Exec(st.Rebind(`update "user" set "emailVerified" = ? where "id" = ?`), v, id); err != nil {
		t.Fatal(err)
	}
}

// signedOut reports whether c's session is gone (get-session answers null from the database).
func signedOut(t *testing.T, c *testkit.Client) bool {
	t.Helper()
	res := c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)
	return string(res.Body) == "null\n"
}

// wantError checks an error answer's status and code.
func wantError(t *testing.T, what string, res testkit.Response, status int, code string) {
	t.Helper()
	if res.Status != status {
		t.Errorf("%s: status %d, want %d: %s", what, res.Status, status, res.Body)
		return
	}
	if got, _ := res.JSON(t)["code"].(string); got != code {
		t.Errorf("%s: code %q, want %q: %s", what, got, code, res.Body)
	}
}

func signIn(c *testkit.Client, email, password string) testkit.Response {
	return c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": email, "password": password})
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
