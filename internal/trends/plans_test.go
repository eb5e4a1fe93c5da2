package trends_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// subscribe records an active subscription to a plan for a workspace, as Polar's webhook would.
func subscribe(t *testing.T, st *store.Store, ws, planName string) {
	t.Helper()
	_, err := st.DB().Exec(st.Rebind(`insert into "billingSubscription" ("id", "workspaceId", "userId", "productId", "plan", "status", "cancelAtPeriodEnd", "currentPeriodEnd", "modifiedAt", "updatedAt") values (?, ?, 'u', 'p', ?, 'active', ?, null, 1, ?)`),
		"sub-"+ws, ws, planName, false, st.Time(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
}

// Each plan's limits are enforced by the server on the requests that touch them: the watchlist's
// size, CSV exports and API access with a bearer token; the refusal names the plan that lifts it.
func TestPlanLimits(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"PLANS_ENFORCED": "true"})
		cases := []struct {
			plan                 string
			watch                int    // items that fit
			exports, api         bool   // allowed
			watchUpgrade, apiUpg string // named in the refusals
		}{
			{"free", 10, false, false, "Pro", "Team"},
			{"pro", 500, true, false, "Team", "Team"},
			{"team", -1, true, true, "", ""},
		}
		for _, c := range cases {
			t.Run(c.plan, func(t *testing.T) {
				cl := app.SignUp(t, c.plan+"@example.com", "password123")
				ws := personal(t, cl)
				if c.plan != "free" {
					subscribe(t, st, ws, c.plan)
				}
				ds := importSeries(t, cl, app, ws)
				path := "/api/workspaces/" + ws + "/watchlist"
				fill := c.watch
				if fill < 0 {
					fill = 600 // more than any counted plan allows
				}
				for i := range fill {
					if res := cl.Do("POST", path, map[string]string{"kind": "asin", "value": fmt.Sprintf("B0PLAN%04d", i)}); res.Status != 201 {
						t.Fatalf("item %d of %d: %d %s", i+1, fill, res.Status, res.Body)
					}
				}
				res := cl.Do("POST", path, map[string]string{"kind": "term", "value": "one more"})
				if c.watch >= 0 && (res.Status != 403 || !strings.Contains(string(res.Body), "Upgrade to "+c.watchUpgrade)) {
					t.Errorf("watchlist past %d: %d %s", c.watch, res.Status, res.Body)
				}
				if c.watch < 0 && res.Status != 201 {
					t.Errorf("unlimited watchlist refused: %d %s", res.Status, res.Body)
				}
				export := cl.Do("GET", "/api/trends/"+ws+"/datasets/"+ds+"/terms.csv", nil)
				if c.exports != (export.Status == 200) || !c.exports && !strings.Contains(string(export.Body), "Upgrade to Pro") {
					t.Errorf("export: %d %s", export.Status, export.Body)
				}
				// A bearer token (scripts, the command line) needs API access.
				signIn := app.Client(t).Do("POST", "/api/auth/sign-in/email", map[string]any{"email": c.plan + "@example.com", "password": "password123"})
				bearer := app.Client(t).Do("GET", "/api/trends/"+ws+"/datasets", nil, "Authorization", "Bearer "+signIn.Header.Get("set-auth-token"), "Origin", "")
				if c.api != (bearer.Status == 200) || !c.api && !strings.Contains(string(bearer.Body), "Upgrade to "+c.apiUpg) {
					t.Errorf("API access: %d %s", bearer.Status, bearer.Body)
				}
				// The browser (cookie session) reads the same workspace whatever the plan.
				if res := cl.Do("GET", "/api/trends/"+ws+"/datasets", nil); res.Status != 200 {
					t.Errorf("browser read: %d", res.Status)
				}
			})
		}
	})
}

// Without billing the operator leaves plans unenforced: nothing is limited.
func TestPlansNotEnforced(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	cl := app.SignUp(t, "open@example.com", "password123")
	ws := personal(t, cl)
	ds := importSeries(t, cl, app, ws)
	if res := cl.Do("GET", "/api/trends/"+ws+"/datasets/"+ds+"/terms.csv", nil); res.Status != 200 {
		t.Errorf("export: %d", res.Status)
	}
	for i := range 11 {
		if res := cl.Do("POST", "/api/workspaces/"+ws+"/watchlist", map[string]string{"kind": "asin", "value": fmt.Sprintf("B0OPEN%04d", i)}); res.Status != 201 {
			t.Fatalf("item %d: %d", i, res.Status)
		}
	}
}
