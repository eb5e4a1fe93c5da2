package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestUpdateUserAndChangePassword(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		if res := c.Do("POST", "/api/auth/update-user", map[string]any{"name": "Ann B", "image": "https://img.example/a.png"}); res.Status != 200 {
			t.Fatalf("update: %d %s", res.Status, res.Body)
		}
		u := sessionOf(t, c.Do("GET", "/api/auth/get-session", nil))["user"].(map[string]any)
		if u["name"] != "Ann B" || u["image"] != "https://img.example/a.png" {
			t.Errorf("cache cookie not refreshed after update: %v", u)
		}
		if res := c.Do("POST", "/api/auth/update-user", map[string]any{}); res.Status != 400 {
			t.Errorf("empty update: %d", res.Status)
		}
		if res := c.Do("POST", "/api/auth/update-user", map[string]any{"email": "x@example.com"}); res.Status != 400 {
			t.Errorf("email via update-user: %d", res.Status)
		}
		other := app.Client(t)
		other.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
		if res := c.Do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "wrong-pass", "newPassword": "password456"}); res.JSON(t)["code"] != "INVALID_PASSWORD" {
			t.Errorf("wrong current password: %s", res.Body)
		}
		res := c.Do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "password123", "newPassword": "password456", "revokeOtherSessions": true})
		if res.Status != 200 || res.JSON(t)["token"] == nil {
			t.Fatalf("change: %d %s", res.Status, res.Body)
		}
		if s := sessionOf(t, other.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s != nil {
			t.Error("the other session survived revokeOtherSessions")
		}
		if s := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s == nil {
			t.Error("the caller lost its session")
		}
		if res := app.Client(t).Do("POST", "/api/auth/update-user", map[string]any{"name": "x"}); res.Status != 401 {
			t.Errorf("anonymous update: %d", res.Status)
		}
	})
}

func TestSessionsListAndRevoke(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		second := app.Client(t)
		second.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "ann@example.com", "password": "password123"})
		mallory := app.SignUp(t, "mallory@example.com", "password123")
		var list []map[string]any
		res := c.Do("GET", "/api/auth/list-sessions", nil)
		if err := jsonArray(res.Body, &list); err != nil || len(list) != 2 {
			t.Fatalf("list: %s", res.Body)
		}
		secondToken := sessionOf(t, second.Do("GET", "/api/auth/get-session", nil))["session"].(map[string]any)["token"].(string)
		if res := mallory.Do("POST", "/api/auth/revoke-session", map[string]any{"token": secondToken}); res.Status != 400 {
			t.Errorf("revoking someone else's session: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", "/api/auth/revoke-session", map[string]any{"token": secondToken}); res.Status != 200 {
			t.Errorf("revoke own: %d %s", res.Status, res.Body)
		}
		if s := sessionOf(t, second.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s != nil {
			t.Error("revoked session still valid")
		}
		if res := c.Do("POST", "/api/auth/revoke-sessions", "{}"); res.Status != 200 {
			t.Errorf("revoke all: %d", res.Status)
		}
		if s := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil)); s != nil {
			t.Error("revoke-sessions kept the current session")
		}
	})
}

func TestFreshSessionRule(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_SESSION_FRESH_AGE": "60"})
	now := time.Now().UTC()
	app.Auth.SetClock(func() time.Time { return now })
	c := app.SignUp(t, "ann@example.com", "password123")
	now = now.Add(2 * time.Minute)
	if res := c.Do("GET", "/api/auth/list-sessions", nil); res.Status != 403 || res.JSON(t)["message"] != "Session is not fresh" {
		t.Errorf("stale session: %d %s", res.Status, res.Body)
	}
}

func TestAccountsAndUnlink(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		var accounts []map[string]any
		if err := jsonArray(c.Do("GET", "/api/auth/list-accounts", nil).Body, &accounts); err != nil || len(accounts) != 1 || accounts[0]["providerId"] != "credential" {
			t.Fatalf("accounts %v %v", accounts, err)
		}
		if scopes, ok := accounts[0]["scopes"].([]any); !ok || len(scopes) != 0 {
			t.Errorf("scopes should be an empty array: %v", accounts[0])
		}
		if res := c.Do("POST", "/api/auth/unlink-account", map[string]any{"providerId": "credential"}); res.JSON(t)["code"] != "FAILED_TO_UNLINK_LAST_ACCOUNT" {
			t.Errorf("last account: %s", res.Body)
		}
		if res := c.Do("POST", "/api/auth/unlink-account", map[string]any{"providerId": "github"}); res.JSON(t)["code"] != "ACCOUNT_NOT_FOUND" {
			t.Errorf("unknown account: %s", res.Body)
		}
		id := accounts[0]["id"].(string)
		if res := c.Do("GET", "/api/auth/account-info?accountId="+id, nil); res.Status != 200 || res.JSON(t)["user"].(map[string]any)["email"] != "ann@example.com" {
			t.Errorf("account-info GET: %d %s", res.Status, res.Body)
		}
		if res := app.SignUp(t, "bob@example.com", "password123").Do("POST", "/api/auth/account-info", map[string]any{"accountId": id}); res.Status != 400 {
			t.Errorf("someone else's account: %d %s", res.Status, res.Body)
		}
	})
}

func TestChangeEmail(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		app.SignUp(t, "taken@example.com", "password123")
		for body, want := range map[string]string{`{"newEmail":"ann@example.com"}`: "Email is the same", `{"newEmail":"taken@example.com"}`: "Couldn't update your email", `{"newEmail":"nope"}`: "Invalid email"} {
			if res := c.Do("POST", "/api/auth/change-email", body); res.JSON(t)["message"] != want {
				t.Errorf("%s: %s, want %s", body, res.Body, want)
			}
		}
		// Verified users confirm on the current address first.
		verify, _ := url.Parse(app.Inbox.Wait(t, "ann@example.com").Link(t, "verify-email"))
		c.Do("GET", verify.RequestURI(), nil)
		if res := c.Do("POST", "/api/auth/change-email", map[string]any{"newEmail": "ann2@example.com", "callbackURL": "/dashboard"}); res.Status != 200 {
			t.Fatalf("change: %d %s", res.Status, res.Body)
		}
		approve, _ := url.Parse(app.Inbox.Wait(t, "ann@example.com").Link(t, "verify-email"))
		if res := c.Do("GET", approve.RequestURI(), nil); res.Status != 302 {
			t.Fatalf("approve: %d %s", res.Status, res.Body)
		}
		confirm, _ := url.Parse(app.Inbox.Wait(t, "ann2@example.com").Link(t, "verify-email"))
		c.Do("GET", confirm.RequestURI(), nil)
		u := sessionOf(t, c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil))["user"].(map[string]any)
		if u["email"] != "ann2@example.com" || u["emailVerified"] != true {
			t.Errorf("after change: %v", u)
		}
	})
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_CHANGE_EMAIL_ENABLED": "false"})
	if res := app.SignUp(t, "a@example.com", "password123").Do("POST", "/api/auth/change-email", map[string]any{"newEmail": "b@example.com"}); res.JSON(t)["message"] != "Change email is disabled" {
		t.Errorf("disabled: %s", res.Body)
	}
}

func TestDeleteUser(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		if res := c.Do("POST", "/api/auth/delete-user", map[string]any{"password": "wrong-one"}); res.JSON(t)["code"] != "INVALID_PASSWORD" {
			t.Errorf("wrong password: %s", res.Body)
		}
		res := c.Do("POST", "/api/auth/delete-user", map[string]any{"callbackURL": "/"})
		if res.JSON(t)["message"] != "Verification email sent" {
			t.Fatalf("mail: %s", res.Body)
		}
		link, _ := url.Parse(app.Inbox.WaitLink(t, "ann@example.com", "delete-user/callback"))
		if tok := link.Query().Get("token"); len(tok) != 32 || strings.ToLower(tok) != tok {
			t.Errorf("delete token %q", tok)
		}
		if res := app.SignUp(t, "eve@example.com", "password123").Do("GET", link.RequestURI(), nil); res.Status != 404 {
			t.Errorf("another user's browser used the link: %d %s", res.Status, res.Body)
		}
		if res := c.Do("GET", link.RequestURI(), nil); res.Status != http.StatusFound {
			t.Fatalf("callback: %d %s", res.Status, res.Body)
		}
		if _, err := st.UserByEmail(t.Context(), "ann@example.com"); err != store.ErrNotFound {
			t.Errorf("user still there: %v", err)
		}
		b := app.SignUp(t, "bob@example.com", "password123")
		if res := b.Do("POST", "/api/auth/delete-user", map[string]any{"password": "password123"}); res.JSON(t)["message"] != "User deleted" {
			t.Errorf("with password: %s", res.Body)
		}
	})
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"AUTH_DELETE_USER_ENABLED": "false"})
	if res := app.SignUp(t, "a@example.com", "password123").Do("POST", "/api/auth/delete-user", map[string]any{"password": "password123"}); res.Status != 404 {
		t.Errorf("disabled: %d", res.Status)
	}
}
