package admin_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// A ban ends the user's sessions and refuses their sign-in with the plugin's code and message;
// a ban with an expiry lifts itself at the first sign-in after it; unban lifts it at once.
func TestBanAndExpiry(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil)
		wantError(t, "ban yourself", w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": w.adminID}), 400, "YOU_CANNOT_BAN_YOURSELF")
		wantError(t, "ban unknown", w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": "nope"}), 404, "USER_NOT_FOUND")
		wantError(t, "ban bad expiry", w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": w.userID, "banExpiresIn": "soon"}), 400, "VALIDATION_ERROR")
		wantError(t, "ban huge expiry", w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": w.userID, "banExpiresIn": 1e300}), 400, "VALIDATION_ERROR")

		before := time.Now()
		res := w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": w.userID, "banReason": "spam", "banExpiresIn": 3600})
		if res.Status != http.StatusOK {
			t.Fatalf("ban-user: %d %s", res.Status, res.Body)
		}
		u := res.JSON(t)["user"].(map[string]any)
		exp, err := time.Parse(time.RFC3339, u["banExpires"].(string))
		if u["banned"] != true || u["banReason"] != "spam" || err != nil || exp.Before(before.Add(59*time.Minute)) || exp.After(time.Now().Add(61*time.Minute)) {
			t.Errorf("banned user: %v (expiry %v)", u, err)
		}
		if !signedOut(t, w.user) {
			t.Error("banned user kept their session")
		}
		c := w.app.Client(t)
		res = signIn(c, w.userMail, pw)
		wantError(t, "banned sign-in", res, 403, "BANNED_USER")
		if msg := res.JSON(t)["message"]; msg != "You have been banned from this application. Please contact support if you believe this is an error." {
			t.Errorf("banned message %q", msg)
		}
		// The clock passes the expiry: the next sign-in lifts the ban.
		w.app.Auth.SetClock(func() time.Time { return time.Now().Add(2 * time.Hour).UTC() })
		res = signIn(c, w.userMail, pw)
		if res.Status != http.StatusOK {
			t.Fatalf("sign-in after the ban expired: %d %s", res.Status, res.Body)
		}
		if got := res.JSON(t)["user"].(map[string]any); got["banned"] != false || got["banReason"] != nil || got["banExpires"] != nil {
			t.Errorf("expired ban not lifted: %v", got)
		}
		w.app.Auth.SetClock(func() time.Time { return time.Now().UTC() })

		// A ban without expiry holds until unban-user.
		res = w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": w.userID})
		if u := res.JSON(t)["user"].(map[string]any); u["banReason"] != "No reason" || u["banExpires"] != nil {
			t.Errorf("default ban: %v", u)
		}
		wantError(t, "banned again", signIn(w.app.Client(t), w.userMail, pw), 403, "BANNED_USER")
		res = w.admin.Do("POST", "/api/auth/admin/unban-user", map[string]any{"userId": w.userID})
		if u := res.JSON(t)["user"].(map[string]any); res.Status != http.StatusOK || u["banned"] != false || u["banReason"] != nil {
			t.Errorf("unban-user: %d %s", res.Status, res.Body)
		}
		if res := signIn(w.app.Client(t), w.userMail, pw); res.Status != http.StatusOK {
			t.Errorf("sign-in after unban: %d %s", res.Status, res.Body)
		}
		wantError(t, "unban unknown", w.admin.Do("POST", "/api/auth/admin/unban-user", map[string]any{"userId": "nope"}), 404, "USER_NOT_FOUND")
	})
}
