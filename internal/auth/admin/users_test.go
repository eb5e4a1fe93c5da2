package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// create-user makes a user who can sign in (with the default role, a personal workspace and the
// data given), and refuses duplicates, bad emails, too-long passwords and unknown roles.
func TestCreateUser(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		res := w.admin.Do("POST", "/api/auth/admin/create-user", map[string]any{"email": "New@Example.com", "password": "password123", "name": "New",
			"data": map[string]any{"emailVerified": true, "banReason": "watch", "ignored": 1}})
		if res.Status != http.StatusOK {
			t.Fatalf("create-user: %d %s", res.Status, res.Body)
		}
		u := res.JSON(t)["user"].(map[string]any)
		for k, want := range map[string]any{"email": "new@example.com", "name": "New", "role": "user", "banned": false, "banReason": "watch", "banExpires": nil, "emailVerified": true} {
			if u[k] != want {
				t.Errorf("created user %s = %v, want %v", k, u[k], want)
			}
		}
		c := w.app.Client(t)
		if res := signIn(c, "new@example.com", "password123"); res.Status != http.StatusOK {
			t.Fatalf("created user cannot sign in: %d %s", res.Status, res.Body)
		}
		if res := c.Do("GET", "/api/workspaces", nil); res.Status != http.StatusOK || !strings.Contains(string(res.Body), "personal-"+u["id"].(string)) {
			t.Errorf("created user has no personal workspace: %d %s", res.Status, res.Body)
		}
		res = w.admin.Do("POST", "/api/auth/admin/create-user", map[string]any{"email": "boss2@example.com", "name": "Boss", "role": []string{"admin", "user"}})
		if res.Status != http.StatusOK || res.JSON(t)["user"].(map[string]any)["role"] != "admin,user" {
			t.Errorf("create-user with roles: %d %s", res.Status, res.Body)
		}
		for name, c := range map[string]struct {
			body   map[string]any
			status int
			code   string
		}{
			"duplicate":      {map[string]any{"email": "NEW@example.com", "name": "X"}, 400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"},
			"bad email":      {map[string]any{"email": "nope", "name": "X"}, 400, "INVALID_EMAIL"},
			"long password":  {map[string]any{"email": "x@example.com", "name": "X", "password": strings.Repeat("p", 129)}, 400, "PASSWORD_TOO_LONG"},
			"unknown role":   {map[string]any{"email": "x@example.com", "name": "X", "role": "editor"}, 400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE"},
			"data role type": {map[string]any{"email": "x@example.com", "name": "X", "data": map[string]any{"role": 5}}, 400, "INVALID_ROLE_TYPE"},
			"no name":        {map[string]any{"email": "x@example.com"}, 400, "VALIDATION_ERROR"},
			"bad data type":  {map[string]any{"email": "x@example.com", "name": "X", "data": map[string]any{"banned": "yes"}}, 400, "VALIDATION_ERROR"},
			"role type":      {map[string]any{"email": "x@example.com", "name": "X", "role": 5}, 400, "VALIDATION_ERROR"},
		} {
			wantError(t, name, w.admin.Do("POST", "/api/auth/admin/create-user", c.body), c.status, c.code)
		}
		if _, err := st.UserByEmail(t.Context(), "x@example.com"); err == nil {
			t.Error("a refused create-user left a user behind")
		}
	})
}

// get-user answers the user unwrapped; update-user changes what it is given (each kind of change
// behind its rule) and answers the user unwrapped; set-role stores comma-separated roles.
func TestGetUpdateUserAndSetRole(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		res := w.admin.Do("GET", "/api/auth/admin/get-user?id="+w.userID, nil)
		if res.Status != http.StatusOK || res.JSON(t)["email"] != w.userMail || res.JSON(t)["role"] != "user" {
			t.Fatalf("get-user: %d %s", res.Status, res.Body)
		}
		wantError(t, "get-user unknown", w.admin.Do("GET", "/api/auth/admin/get-user?id=nope", nil), 404, "USER_NOT_FOUND")
		wantError(t, "get-user without id", w.admin.Do("GET", "/api/auth/admin/get-user", nil), 400, "VALIDATION_ERROR")

		res = w.admin.Do("POST", "/api/auth/admin/update-user", map[string]any{"userId": w.userID, "data": map[string]any{
			"name": "Renamed", "email": "Renamed@Example.com", "emailVerified": true, "image": "https://example.com/a.png", "role": []string{"user", "admin"}, "banReason": "note", "unknown": 1}})
		if res.Status != http.StatusOK {
			t.Fatalf("update-user: %d %s", res.Status, res.Body)
		}
		u := res.JSON(t)
		for k, want := range map[string]any{"name": "Renamed", "email": "renamed@example.com", "emailVerified": true, "image": "https://example.com/a.png", "role": "user,admin", "banReason": "note", "banned": false} {
			if u[k] != want {
				t.Errorf("updated %s = %v, want %v", k, u[k], want)
			}
		}
		if got := sessionUser(t, w.user); got["name"] != "Renamed" || got["role"] != "user,admin" {
			t.Errorf("the user's own session does not show the update: %v", got)
		}
		for name, c := range map[string]struct {
			body   map[string]any
			status int
			code   string
		}{
			"no data":        {map[string]any{"userId": w.userID, "data": map[string]any{}}, 400, "NO_DATA_TO_UPDATE"},
			"password":       {map[string]any{"userId": w.userID, "data": map[string]any{"password": "x"}}, 400, "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER"},
			"id":             {map[string]any{"userId": w.userID, "data": map[string]any{"id": "x"}}, 400, "USER_ID_CANNOT_BE_UPDATED"},
			"email taken":    {map[string]any{"userId": w.userID, "data": map[string]any{"email": "ADMIN@example.com"}}, 400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"},
			"bad email":      {map[string]any{"userId": w.userID, "data": map[string]any{"email": "nope"}}, 400, "INVALID_EMAIL"},
			"ban yourself":   {map[string]any{"userId": w.adminID, "data": map[string]any{"banned": true}}, 400, "YOU_CANNOT_BAN_YOURSELF"},
			"role type":      {map[string]any{"userId": w.userID, "data": map[string]any{"role": 5}}, 400, "INVALID_ROLE_TYPE"},
			"unknown role":   {map[string]any{"userId": w.userID, "data": map[string]any{"role": "owner"}}, 400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE"},
			"unknown user":   {map[string]any{"userId": "nope", "data": map[string]any{"name": "x"}}, 404, "USER_NOT_FOUND"},
			"name type":      {map[string]any{"userId": w.userID, "data": map[string]any{"name": 5}}, 400, "VALIDATION_ERROR"},
			"no data at all": {map[string]any{"userId": w.userID}, 400, "VALIDATION_ERROR"},
		} {
			wantError(t, "update-user "+name, w.admin.Do("POST", "/api/auth/admin/update-user", c.body), c.status, c.code)
		}
		// Banning through update-user ends the user's sessions too.
		if res := w.admin.Do("POST", "/api/auth/admin/update-user", map[string]any{"userId": w.userID, "data": map[string]any{"banned": true}}); res.Status != http.StatusOK {
			t.Fatalf("update-user banned: %d %s", res.Status, res.Body)
		}
		if !signedOut(t, w.user) {
			t.Error("a user banned through update-user kept their session")
		}

		res = w.admin.Do("POST", "/api/auth/admin/set-role", map[string]any{"userId": w.userID, "role": []string{"admin", "user"}})
		if res.Status != http.StatusOK || res.JSON(t)["user"].(map[string]any)["role"] != "admin,user" {
			t.Errorf("set-role: %d %s", res.Status, res.Body)
		}
		wantError(t, "set-role unknown role", w.admin.Do("POST", "/api/auth/admin/set-role", map[string]any{"userId": w.userID, "role": "editor"}), 400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE")
		wantError(t, "set-role unknown user", w.admin.Do("POST", "/api/auth/admin/set-role", map[string]any{"userId": "nope", "role": "admin"}), 404, "USER_NOT_FOUND")
		wantError(t, "set-role no role", w.admin.Do("POST", "/api/auth/admin/set-role", map[string]any{"userId": w.userID}), 400, "VALIDATION_ERROR")
		// A numeric userId is coerced to a string, as Better Auth's z.coerce.string().
		wantError(t, "set-role numeric id", w.admin.Do("POST", "/api/auth/admin/set-role", map[string]any{"userId": 12, "role": "admin"}), 404, "USER_NOT_FOUND")
	})
}

// set-user-password replaces a password (the old one stops working) or creates the credential
// account of a user who had none; lengths follow the configured bounds.
func TestSetUserPassword(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		if res := w.admin.Do("POST", "/api/auth/admin/set-user-password", map[string]any{"userId": w.userID, "newPassword": "password999"}); res.Status != http.StatusOK || res.JSON(t)["status"] != true {
			t.Fatalf("set-user-password: %d %s", res.Status, res.Body)
		}
		c := w.app.Client(t)
		wantError(t, "old password", signIn(c, w.userMail, pw), 401, "INVALID_EMAIL_OR_PASSWORD")
		if res := signIn(c, w.userMail, "password999"); res.Status != http.StatusOK {
			t.Errorf("new password refused: %d %s", res.Status, res.Body)
		}
		res := w.admin.Do("POST", "/api/auth/admin/create-user", map[string]any{"email": "nopw@example.com", "name": "No Password"})
		id := res.JSON(t)["user"].(map[string]any)["id"].(string)
		wantError(t, "no credential yet", signIn(c, "nopw@example.com", "password999"), 401, "INVALID_EMAIL_OR_PASSWORD")
		w.admin.Do("POST", "/api/auth/admin/set-user-password", map[string]any{"userId": id, "newPassword": "password999"})
		if res := signIn(c, "nopw@example.com", "password999"); res.Status != http.StatusOK {
			t.Errorf("password set for a user without one refused: %d %s", res.Status, res.Body)
		}
		wantError(t, "short", w.admin.Do("POST", "/api/auth/admin/set-user-password", map[string]any{"userId": id, "newPassword": "short"}), 400, "PASSWORD_TOO_SHORT")
		wantError(t, "long", w.admin.Do("POST", "/api/auth/admin/set-user-password", map[string]any{"userId": id, "newPassword": strings.Repeat("p", 129)}), 400, "PASSWORD_TOO_LONG")
		wantError(t, "empty", w.admin.Do("POST", "/api/auth/admin/set-user-password", map[string]any{"userId": id, "newPassword": ""}), 400, "VALIDATION_ERROR")
		wantError(t, "unknown", w.admin.Do("POST", "/api/auth/admin/set-user-password", map[string]any{"userId": "nope", "newPassword": "password999"}), 404, "USER_NOT_FOUND")
	})
}

// remove-user deletes the user with their sessions and accounts (through the core, so the
// workspace goes too); an admin cannot remove themselves.
func TestRemoveUser(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		wantError(t, "remove yourself", w.admin.Do("POST", "/api/auth/admin/remove-user", map[string]any{"userId": w.adminID}), 400, "YOU_CANNOT_REMOVE_YOURSELF")
		if res := w.admin.Do("POST", "/api/auth/admin/remove-user", map[string]any{"userId": w.userID}); res.Status != http.StatusOK || res.JSON(t)["success"] != true {
			t.Fatalf("remove-user: %d %s", res.Status, res.Body)
		}
		if !signedOut(t, w.user) {
			t.Error("removed user still signed in")
		}
		if _, err := st.UserByID(t.Context(), w.userID); err != store.ErrNotFound {
			t.Errorf("user row left: %v", err)
		}
		wantError(t, "sign-in after removal", signIn(w.app.Client(t), w.userMail, pw), 401, "INVALID_EMAIL_OR_PASSWORD")
		wantError(t, "remove again", w.admin.Do("POST", "/api/auth/admin/remove-user", map[string]any{"userId": w.userID}), 404, "USER_NOT_FOUND")
	})
}
