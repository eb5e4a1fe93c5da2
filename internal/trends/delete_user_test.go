package trends_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/sellertrends/sellertrends/internal/sessioncache"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Deleting an account deletes everything it owns, as the deletion mail promises: its
// workspace with the datasets (rows and per-dataset tables in DuckDB), import history, upload
// files and watchlist; its alert settings; its cached sessions in Redis. Another user's data
// stays.
func TestDeletingAnAccountDeletesEverythingItOwns(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"REDIS_URL": "redis://127.0.0.1:6379/0"})
		ctx := context.Background()
		gone := app.SignUp(t, "gone@example.com", "password123")
		kept := app.SignUp(t, "kept@example.com", "password123")
		goneWS, keptWS := personal(t, gone), personal(t, kept)
		goneDS, keptDS := importSeries(t, gone, app, goneWS), importSeries(t, kept, app, keptWS)
		for _, c := range []*testkit.Client{gone, kept} {
			ws := personal(t, c)
			if res := c.Do("POST", "/api/workspaces/"+ws+"/watchlist", map[string]string{"kind": "term", "value": "yoga mat"}); res.Status != http.StatusCreated {
				t.Fatalf("watch: %d %s", res.Status, res.Body)
			}
			if res := c.Do("POST", "/api/workspaces/demo/watchlist", map[string]string{"kind": "term", "value": "desk lamp"}); res.Status != http.StatusCreated {
				t.Fatalf("watch on demo: %d %s", res.Status, res.Body)
			}
			if res := c.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": "weekly", "threshold": 50}); res.Status != http.StatusOK {
				t.Fatalf("alerts: %d %s", res.Status, res.Body)
			}
		}
		goneID := userID(t, gone)
		rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
		defer rdb.Close()
		if n, _ := rdb.Exists(ctx, sessioncache.Prefix+"u:"+goneID).Result(); n != 1 {
			t.Fatalf("the session cache holds no entry for the user before deletion (%d): nothing to check", n)
		}

		app.Warehouse.WaitBackground() // the per-dataset tables are made after the import
		wh := app.Warehouse.DB()
		perDataset := `select count(*) from duckdb_tables() where table_name like '%\_'||?::varchar escape '\'`
		var before int
		if err := wh.QueryRowContext(ctx, perDataset, goneDS).Scan(&before); err != nil || before == 0 {
			t.Fatalf("the dataset has no tables of its own before deletion (%v): nothing to check", err)
		}

		if res := gone.Do("POST", "/api/auth/delete-user", map[string]any{"password": "password123"}); res.Status != http.StatusOK {
			t.Fatalf("delete-user: %d %s", res.Status, res.Body)
		}

		for _, q := range []struct{ sql, arg string }{
			{`select count(*) from "workspace" where "id" = ?`, goneWS},
			{`select count(*) from "workspaceMember" where "workspaceId" = ? or "userId" = ?`, goneWS},
			{`select count(*) from "watchlistItem" where "workspaceId" = ?`, goneWS},
			{`select count(*) from "alertPreference" where "userId" = ?`, goneID},
			{`select count(*) from "session" where "userId" = ?`, goneID},
			{`select count(*) from "user" where "id" = ?`, goneID},
		} {
			args := []any{q.arg}
			if q.arg == goneWS && len(q.sql) > 70 {
				args = append(args, goneID)
			}
			var n int
			if err := st.DB().QueryRowContext(ctx, st.Rebind(q.sql), args...).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s [%s]: %d rows left (%v)", q.sql, q.arg, n, err)
			}
		}
		var rows, tables int
		if err := wh.QueryRowContext(ctx, `select (select count(*) from fact where dataset_id = ?) + (select count(*) from period where dataset_id = ?) +
			(select count(*) from term where dataset_id = ?) + (select count(*) from term_stats where dataset_id = ?) + (select count(*) from dataset where workspace = ?)`,
			goneDS, goneDS, goneDS, goneDS, goneWS).Scan(&rows); err != nil || rows != 0 {
			t.Errorf("warehouse rows of the deleted dataset: %d (%v)", rows, err)
		}
		if err := wh.QueryRowContext(ctx, perDataset, goneDS).Scan(&tables); err != nil || tables != 0 {
			t.Errorf("per-dataset tables of the deleted dataset: %d (%v)", tables, err)
		}
		if n, _ := rdb.Exists(ctx, sessioncache.Prefix+"u:"+goneID).Result(); n != 0 {
			t.Error("the session cache still holds the deleted user's sessions")
		}
		if res := gone.Do("GET", "/api/trends/"+goneWS+"/imports", nil); res.Status != http.StatusUnauthorized {
			t.Errorf("import history after deletion: %d %s", res.Status, res.Body)
		}

		// The other user's data is whole.
		if ds := kept.Do("GET", "/api/trends/"+keptWS+"/datasets", nil).JSON(t)["datasets"].([]any); len(ds) != 1 || fmt.Sprint(ds[0].(map[string]any)["id"]) != keptDS {
			t.Errorf("kept datasets: %v", ds)
		}
		if res := kept.Do("GET", "/api/trends/"+keptWS+"/datasets/"+keptDS+"/terms?limit=1", nil); res.Status != http.StatusOK {
			t.Errorf("kept terms: %d %s", res.Status, res.Body)
		}
		if jobs := kept.Do("GET", "/api/trends/"+keptWS+"/imports", nil).JSON(t)["jobs"].([]any); len(jobs) != 2 {
			t.Errorf("kept import history: %d jobs", len(jobs))
		}
		if items := kept.Do("GET", "/api/workspaces/"+keptWS+"/watchlist", nil).JSON(t)["items"].([]any); len(items) != 2 {
			t.Errorf("kept watchlist: %v", items)
		}
		if got := kept.Do("GET", "/api/alerts/settings", nil).JSON(t); got["frequency"] != "weekly" {
			t.Errorf("kept alert settings: %v", got)
		}

		// A new account with a new personal workspace starts empty.
		again := app.SignUp(t, "gone@example.com", "password123")
		if ds := again.Do("GET", "/api/trends/"+personal(t, again)+"/datasets", nil).JSON(t)["datasets"].([]any); len(ds) != 0 {
			t.Errorf("a new account under the same email sees datasets: %v", ds)
		}
	})
}

func userID(t *testing.T, c *testkit.Client) string {
	t.Helper()
	var s struct {
		User struct{ ID string } `json:"user"`
	}
	if err := json.Unmarshal(c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil).Body, &s); err != nil || s.User.ID == "" {
		t.Fatalf("session: %v", err)
	}
	return s.User.ID
}
