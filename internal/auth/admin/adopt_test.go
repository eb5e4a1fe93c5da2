package admin_test

import (
	"net/http"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// A database where Better Auth's admin plugin already added its columns (its own DDL, no
// defaults) is adopted as is: the plugin's migration skips them and reads the rows they hold.
func TestAdoptsBetterAuthAdminColumns(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		ddl := []string{`alter table "user" add column "role" text`, `alter table "user" add column "banned" integer`,
			`alter table "user" add column "banReason" text`, `alter table "user" add column "banExpires" date`,
			`alter table "session" add column "impersonatedBy" text`}
		banned, until := any(1), any("2999-01-01T00:00:00.000Z")
		if st.Postgres() {
			ddl[1], ddl[3] = `alter table "user" add column "banned" boolean`, `alter table "user" add column "banExpires" timestamptz`
			banned = true
		}
		for _, q := range ddl {
			if _, err := st.DB().Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		w := newWorld(t, st, nil) // the plugin registers over the existing columns
		if _, err := st.DB().Exec(st.Rebind(`update "user" set "banned" = ?, "banReason" = 'old ban', "banExpires" = ? where "id" = ?`), banned, until, w.userID); err != nil {
			t.Fatal(err)
		}
		res := w.admin.Do("GET", "/api/auth/admin/get-user?id="+w.userID, nil)
		u := res.JSON(t)
		if res.Status != http.StatusOK || u["banned"] != true || u["banReason"] != "old ban" || u["banExpires"] != "2999-01-01T00:00:00.000Z" || u["role"] != "user" {
			t.Errorf("adopted row: %d %s", res.Status, res.Body)
		}
		wantError(t, "adopted ban", signIn(w.app.Client(t), w.userMail, pw), 403, "BANNED_USER")
		// A user written by Better Auth before the plugin has no role: null, and "user" rights.
		if _, err := st.DB().Exec(st.Rebind(`update "user" set "role" = null where "id" = ?`), w.userID); err != nil {
			t.Fatal(err)
		}
		if u := w.admin.Do("GET", "/api/auth/admin/get-user?id="+w.userID, nil).JSON(t); u["role"] != nil {
			t.Errorf("null role answered as %v", u["role"])
		}
	})
}
