package admin_test

import (
	"net/http"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// route is one admin endpoint with a valid body, the code a plain user gets, and the
// permission it needs.
type route struct {
	method, path string
	body         func(w *world) any
	denied       string
}

func routes() []route {
	target := func(w *world) any { return map[string]any{"userId": w.userID} }
	return []route{
		{"POST", "/api/auth/admin/set-role", func(w *world) any { return map[string]any{"userId": w.userID, "role": "user"} }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE"},
		{"GET", "/api/auth/admin/get-user?id=x", nil, "YOU_ARE_NOT_ALLOWED_TO_GET_USER"},
		{"POST", "/api/auth/admin/create-user", func(*world) any { return map[string]any{"email": "new@example.com", "name": "New"} }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS"},
		{"POST", "/api/auth/admin/update-user", func(w *world) any { return map[string]any{"userId": w.userID, "data": map[string]any{"name": "X"}} }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS"},
		{"GET", "/api/auth/admin/list-users", nil, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS"},
		{"POST", "/api/auth/admin/list-user-sessions", target, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS"},
		{"POST", "/api/auth/admin/unban-user", target, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"},
		{"POST", "/api/auth/admin/ban-user", func(w *world) any { return map[string]any{"userId": w.adminID} }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"},
		{"POST", "/api/auth/admin/impersonate-user", func(w *world) any { return map[string]any{"userId": w.adminID} }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS"},
		{"POST", "/api/auth/admin/revoke-user-session", func(*world) any { return map[string]any{"sessionToken": "nope"} }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"},
		{"POST", "/api/auth/admin/revoke-user-sessions", target, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"},
		{"POST", "/api/auth/admin/remove-user", func(w *world) any { return map[string]any{"userId": w.adminID} }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS"},
		{"POST", "/api/auth/admin/set-user-password", func(w *world) any { return map[string]any{"userId": w.adminID, "newPassword": "password999"} }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD"},
	}
}

func (rt route) do(w *world, c *testkit.Client) testkit.Response {
	var body any
	if rt.body != nil {
		body = rt.body(w)
	}
	return c.Do(rt.method, rt.path, body)
}

// Every admin route answers 401 without a session and the plugin's 403 to a plain user (also
// through a bearer token and with a forged role in nothing but the cookie cache); an admin
// gets past the permission check.
func TestEveryRouteChecksTheCaller(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		anon := w.app.Client(t)
		for _, rt := range routes() {
			wantError(t, rt.path+" anonymous", rt.do(w, anon), http.StatusUnauthorized, "UNAUTHORIZED")
			wantError(t, rt.path+" as user", rt.do(w, w.user), http.StatusForbidden, rt.denied)
		}
		for _, path := range []string{"/api/auth/admin/has-permission", "/api/auth/admin/stop-impersonating"} {
			res := anon.Do("POST", path, map[string]any{"permissions": map[string]any{"user": []string{"list"}}})
			wantError(t, path+" anonymous", res, http.StatusUnauthorized, "UNAUTHORIZED")
		}
		// The admin's answers are never the permission refusals (impersonating an admin, here
		// the admin itself, is refused for its own reason).
		for _, rt := range routes() {
			res := rt.do(w, w.admin)
			if code, _ := res.JSON(t)["code"].(string); res.Status == http.StatusUnauthorized || (res.Status == http.StatusForbidden && code != "YOU_CANNOT_IMPERSONATE_ADMINS") {
				t.Errorf("%s as admin: %d %s", rt.path, res.Status, res.Body)
			}
		}
	})
}

// AUTH_ADMIN_USER_IDS are admins whatever their role; AUTH_ADMIN_EMAILS only once the address
// is verified (anyone can sign up with an unverified address); a role taken away counts at once.
func TestConfiguredAdmins(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		// The ids are random, so the first server finds them and the second is configured.
		pre := newWorld(t, st, nil)
		w := &world{app: testkit.Server(t, st, map[string]string{"AUTH_ADMIN_USER_IDS": "someone-else," + pre.userID, "AUTH_ADMIN_EMAILS": "Boss@Example.com"}), st: st}
		byID := w.app.Client(t)
		if res := signIn(byID, pre.userMail, pw); res.Status != http.StatusOK {
			t.Fatalf("sign-in: %d %s", res.Status, res.Body)
		}
		if res := byID.Do("GET", "/api/auth/admin/list-users", nil); res.Status != http.StatusOK {
			t.Errorf("AUTH_ADMIN_USER_IDS user cannot list users: %d %s", res.Status, res.Body)
		}
		boss := w.app.SignUp(t, "boss@example.com", pw)
		wantError(t, "unverified admin email", boss.Do("GET", "/api/auth/admin/list-users", nil), http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS")
		verifyEmail(t, st, sessionUser(t, boss)["id"].(string))
		if res := boss.Do("GET", "/api/auth/admin/list-users", nil); res.Status != http.StatusOK {
			t.Errorf("verified AUTH_ADMIN_EMAILS user cannot list users: %d %s", res.Status, res.Body)
		}
		// Demoting the role-based admin counts on the next request, cookie cache or not.
		former := w.app.Client(t)
		signIn(former, pre.adminMail, pw)
		if res := former.Do("GET", "/api/auth/admin/list-users", nil); res.Status != http.StatusOK {
			t.Fatalf("admin cannot list: %d %s", res.Status, res.Body)
		}
		setRole(t, st, pre.adminID, "user")
		wantError(t, "demoted admin", former.Do("GET", "/api/auth/admin/list-users", nil), http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS")
		// Several roles, comma-separated: any one granting is enough.
		setRole(t, st, pre.adminID, "user,admin")
		if res := former.Do("GET", "/api/auth/admin/list-users", nil); res.Status != http.StatusOK {
			t.Errorf("user,admin cannot list: %d %s", res.Status, res.Body)
		}
	})
}

// has-permission answers for the caller: every permission of both roles, AND across
// resources, unknown resources and empty action lists refused; malformed requests are 400s.
func TestHasPermission(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		all := map[string][]string{
			"user":    {"create", "list", "set-role", "ban", "impersonate", "delete", "set-password", "set-email", "set-phone", "get", "update"},
			"session": {"list", "revoke", "delete"},
		}
		ask := func(c *testkit.Client, perms any) bool {
			t.Helper()
			res := c.Do("POST", "/api/auth/admin/has-permission", map[string]any{"permissions": perms})
			m := res.JSON(t)
			if res.Status != http.StatusOK || m["error"] != nil {
				t.Fatalf("has-permission %v: %d %s", perms, res.Status, res.Body)
			}
			return m["success"].(bool)
		}
		for resource, actions := range all {
			for _, a := range actions {
				p := map[string][]string{resource: {a}}
				if !ask(w.admin, p) {
					t.Errorf("admin lacks %s:%s", resource, a)
				}
				if ask(w.user, p) {
					t.Errorf("user has %s:%s", resource, a)
				}
			}
		}
		cases := []struct {
			perms any
			want  bool
		}{
			{all, true},
			{map[string][]string{"user": {"impersonate-admins"}}, false},
			{map[string][]string{"user": {"list", "impersonate-admins"}}, false},
			{map[string][]string{"user": {"list"}, "billing": {"read"}}, false},
			{map[string][]string{"user": {}}, false},
			{map[string][]string{}, false},
		}
		for _, c := range cases {
			if got := ask(w.admin, c.perms); got != c.want {
				t.Errorf("admin %v = %v, want %v", c.perms, got, c.want)
			}
		}
		// Asking about someone else changes nothing: the caller is checked.
		if ask2 := w.user.Do("POST", "/api/auth/admin/has-permission", map[string]any{"userId": w.adminID, "role": "admin", "permissions": map[string][]string{"user": {"list"}}}); ask2.JSON(t)["success"] != false {
			t.Errorf("user borrowed the admin's permission: %s", ask2.Body)
		}
		res := w.admin.Do("POST", "/api/auth/admin/has-permission", map[string]any{"permission": map[string][]string{"user": {"list"}}})
		if res.Status != http.StatusBadRequest || res.JSON(t)["message"] != "invalid permission check. no permission(s) were passed." {
			t.Errorf("singular permission: %d %s", res.Status, res.Body)
		}
		wantError(t, "no permissions", w.admin.Do("POST", "/api/auth/admin/has-permission", map[string]any{}), http.StatusBadRequest, "VALIDATION_ERROR")
		wantError(t, "bad shape", w.admin.Do("POST", "/api/auth/admin/has-permission", map[string]any{"permissions": map[string]any{"user": "list"}}), http.StatusBadRequest, "VALIDATION_ERROR")
	})
}
