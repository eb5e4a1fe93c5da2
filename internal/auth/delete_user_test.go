package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

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
