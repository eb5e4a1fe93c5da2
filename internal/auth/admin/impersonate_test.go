package admin_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// An admin impersonates a user: the browser is the user's for an hour with a session marked
// impersonatedBy (hidden from the user's own session list), then stop-impersonating gives the
// admin's session back and ends the impersonation session.
func TestImpersonation(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		adminToken := w.admin.Cookie("better-auth.session_token")
		res := w.admin.Do("POST", "/api/auth/admin/impersonate-user", map[string]any{"userId": w.userID})
		if res.Status != http.StatusOK {
			t.Fatalf("impersonate-user: %d %s", res.Status, res.Body)
		}
		m := res.JSON(t)
		sess, user := m["session"].(map[string]any), m["user"].(map[string]any)
		if sess["impersonatedBy"] != w.adminID || sess["userId"] != w.userID || user["id"] != w.userID {
			t.Errorf("impersonation answer: %s", res.Body)
		}
		exp, _ := time.Parse(time.RFC3339, sess["expiresAt"].(string))
		if d := time.Until(exp); d < 59*time.Minute || d > 61*time.Minute {
			t.Errorf("impersonation session lasts %v, want 1h", d)
		}
		if w.admin.Cookie("better-auth.admin_session") == "" || w.admin.Cookie("better-auth.dont_remember") == "" {
			t.Error("admin_session / dont_remember cookies not set")
		}
		got := w.admin.Do("GET", "/api/auth/get-session", nil).JSON(t)
		if got["user"].(map[string]any)["id"] != w.userID || got["session"].(map[string]any)["impersonatedBy"] != w.adminID {
			t.Errorf("get-session while impersonating: %v", got)
		}
		// The user's own list of sessions does not show the impersonation.
		list := w.user.Do("GET", "/api/auth/list-sessions", nil)
		var own []map[string]any
		if err := jsonUnmarshal(list.Body, &own); err != nil || len(own) != 1 || own[0]["impersonatedBy"] != nil {
			t.Errorf("user's list-sessions: %s", list.Body)
		}
		// The admin's list of the user's sessions does.
		all := w.user.Do("POST", "/api/auth/admin/list-user-sessions", map[string]any{"userId": w.userID})
		wantError(t, "user lists sessions", all, 403, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS")
		other := w.app.Client(t)
		signIn(other, w.adminMail, pw)
		all = other.Do("POST", "/api/auth/admin/list-user-sessions", map[string]any{"userId": w.userID})
		if n := len(all.JSON(t)["sessions"].([]any)); n != 2 {
			t.Errorf("admin sees %d sessions of the user, want 2: %s", n, all.Body)
		}
		// While impersonating, the browser has the user's rights only.
		wantError(t, "impersonating admin lists users", w.admin.Do("GET", "/api/auth/admin/list-users", nil), 403, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS")

		res = w.admin.Do("POST", "/api/auth/admin/stop-impersonating", nil)
		if res.Status != http.StatusOK || res.JSON(t)["user"].(map[string]any)["id"] != w.adminID {
			t.Fatalf("stop-impersonating: %d %s", res.Status, res.Body)
		}
		if w.admin.Cookie("better-auth.session_token") != adminToken || w.admin.Cookie("better-auth.admin_session") != "" {
			t.Error("the admin's session cookie is not back, or admin_session is left")
		}
		if sessionUser(t, w.admin)["id"] != w.adminID {
			t.Error("not the admin after stop-impersonating")
		}
		all = other.Do("POST", "/api/auth/admin/list-user-sessions", map[string]any{"userId": w.userID})
		if n := len(all.JSON(t)["sessions"].([]any)); n != 1 {
			t.Errorf("impersonation session not ended: %d sessions", n)
		}
		res = w.admin.Do("POST", "/api/auth/admin/stop-impersonating", nil)
		if res.Status != 400 || res.JSON(t)["message"] != "You are not impersonating anyone" {
			t.Errorf("stop without impersonating: %d %s", res.Status, res.Body)
		}
		wantError(t, "impersonate unknown", w.admin.Do("POST", "/api/auth/admin/impersonate-user", map[string]any{"userId": "nope"}), 404, "USER_NOT_FOUND")
	})
}

// Limits: the impersonation session dies after its hour; admins (by role or configuration)
// cannot be impersonated unless AUTH_ADMIN_IMPERSONATE_ADMINS; banned users cannot be either;
// without the admin_session cookie stop-impersonating refuses.
func TestImpersonationLimits(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		other := w.app.SignUp(t, "second@example.com", pw)
		secondID := sessionUser(t, other)["id"].(string)
		setRole(t, st, secondID, "admin")
		wantError(t, "impersonate an admin", w.admin.Do("POST", "/api/auth/admin/impersonate-user", map[string]any{"userId": secondID}), 403, "YOU_CANNOT_IMPERSONATE_ADMINS")

		// The hour passes.
		imp := w.app.Client(t)
		signIn(imp, w.adminMail, pw)
		if res := imp.Do("POST", "/api/auth/admin/impersonate-user", map[string]any{"userId": w.userID}); res.Status != http.StatusOK {
			t.Fatalf("impersonate: %d %s", res.Status, res.Body)
		}
		w.app.Auth.SetClock(func() time.Time { return time.Now().Add(61 * time.Minute).UTC() })
		if res := imp.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil); string(res.Body) != "null\n" {
			t.Errorf("impersonation session alive after an hour: %s", res.Body)
		}
		w.app.Auth.SetClock(func() time.Time { return time.Now().UTC() })

		// Without the admin_session cookie (another browser holding the token) there is no way back.
		signIn(imp, w.adminMail, pw)
		imp.Do("POST", "/api/auth/admin/impersonate-user", map[string]any{"userId": w.userID})
		token := imp.Cookie("better-auth.session_token")
		bare := w.app.Client(t)
		res := bare.Do("POST", "/api/auth/admin/stop-impersonating", nil, "Cookie", "better-auth.session_token="+token)
		if res.Status != 400 || res.JSON(t)["message"] != "Failed to find admin session" {
			t.Errorf("stop without admin_session: %d %s", res.Status, res.Body)
		}

		// A banned user cannot be impersonated.
		w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": w.userID})
		wantError(t, "impersonate banned", w.admin.Do("POST", "/api/auth/admin/impersonate-user", map[string]any{"userId": w.userID}), 403, "BANNED_USER")

		// Configured: admins may impersonate admins, for the configured duration.
		w2 := testkit.Server(t, st, map[string]string{"AUTH_ADMIN_IMPERSONATE_ADMINS": "true", "AUTH_ADMIN_IMPERSONATION_DURATION": "10m"})
		c := w2.Client(t)
		signIn(c, w.adminMail, pw)
		res = c.Do("POST", "/api/auth/admin/impersonate-user", map[string]any{"userId": secondID})
		if res.Status != http.StatusOK {
			t.Fatalf("impersonate admin when allowed: %d %s", res.Status, res.Body)
		}
		exp, _ := time.Parse(time.RFC3339, res.JSON(t)["session"].(map[string]any)["expiresAt"].(string))
		if d := time.Until(exp); d < 9*time.Minute || d > 11*time.Minute {
			t.Errorf("impersonation lasts %v, want 10m", d)
		}
	})
}

// An admin revokes one session of a user, or all of them.
func TestRevokeUserSessions(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		second := w.app.Client(t)
		signIn(second, w.userMail, pw)
		res := w.admin.Do("POST", "/api/auth/admin/list-user-sessions", map[string]any{"userId": w.userID})
		sessions := res.JSON(t)["sessions"].([]any)
		if len(sessions) != 2 {
			t.Fatalf("list-user-sessions: %s", res.Body)
		}
		first := sessions[0].(map[string]any)
		if first["impersonatedBy"] != nil || first["userId"] != w.userID {
			t.Errorf("session answer: %v", first)
		}
		if res := w.admin.Do("POST", "/api/auth/admin/revoke-user-session", map[string]any{"sessionToken": first["token"]}); res.Status != 200 || res.JSON(t)["success"] != true {
			t.Fatalf("revoke-user-session: %d %s", res.Status, res.Body)
		}
		if !signedOut(t, w.user) || signedOut(t, second) {
			t.Error("revoke-user-session ended the wrong session")
		}
		wantError(t, "revoke without token", w.admin.Do("POST", "/api/auth/admin/revoke-user-session", map[string]any{}), 400, "VALIDATION_ERROR")
		w.admin.Do("POST", "/api/auth/admin/revoke-user-sessions", map[string]any{"userId": w.userID})
		if !signedOut(t, second) {
			t.Error("revoke-user-sessions left a session")
		}
		if res := w.admin.Do("POST", "/api/auth/admin/list-user-sessions", map[string]any{"userId": "nope"}); res.Status != 200 || len(res.JSON(t)["sessions"].([]any)) != 0 {
			t.Errorf("sessions of nobody: %d %s", res.Status, res.Body)
		}
		if sessionUser(t, w.admin)["id"] != w.adminID {
			t.Error("the admin lost their session")
		}
	})
}
