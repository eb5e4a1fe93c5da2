package trends_test

import (
	"context"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Reading one's own workspace never opens a write transaction: while another connection holds
// the database's write lock (SQLite: BEGIN IMMEDIATE; PostgreSQL: an exclusive lock on the
// workspace tables, which blocks writes but not reads), every read answers at once. A read that
// wrote (it used to "ensure" the personal workspace in a write transaction on every request)
// would wait for the lock, SQLite's busy timeout of 5 s and then fail.
func TestReadingOwnWorkspaceNeverWrites(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "seller@example.com", "password123")
		ws := personal(t, c)
		ds := importSeries(t, c, app, ws)

		ctx := context.Background()
		conn, err := st.DB().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		lock := []string{`BEGIN IMMEDIATE`}
		if _, err := conn.ExecContext(ctx, `select 1 from pg_catalog.pg_class limit 1`); err == nil {
			lock = []string{`BEGIN`, `LOCK TABLE "workspace", "workspaceMember" IN EXCLUSIVE MODE`}
		}
		for _, q := range lock {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		defer conn.ExecContext(ctx, `ROLLBACK`)

		c.HTTP.Timeout = 3 * time.Second // under SQLite's busy timeout: a blocked read fails here
		base := "/api/trends/" + ws
		for _, p := range []string{"/api/workspaces", base + "/datasets", base + "/datasets/" + ds + "/summary", base + "/datasets/" + ds + "/terms",
			base + "/imports", "/api/workspaces/" + ws + "/watchlist"} {
			started := time.Now()
			res := c.Do("GET", p, nil)
			if res.Status != 200 || time.Since(started) > 2*time.Second {
				t.Errorf("%s under a held write lock: %d after %v: %.200s", p, res.Status, time.Since(started), res.Body)
			}
		}
	})
}
