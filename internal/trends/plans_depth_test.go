package trends_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// weeks writes n consecutive weekly reports (the testdata week with its dates moved), the last
// ending on 2026-04-11, and returns their paths, oldest first.
func weeks(t *testing.T, prefix string, n int) []string {
	t.Helper()
	tmpl, err := os.ReadFile("testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	last := time.Date(2026, 4, 11, 0, 0, 0, 0, time.UTC)
	var out []string
	for i := n - 1; i >= 0; i-- {
		end := last.AddDate(0, 0, -7*i)
		start := end.AddDate(0, 0, -6)
		body := strings.ReplaceAll(string(tmpl), "2026-04-05 - 2026-04-11", start.Format(time.DateOnly)+" - "+end.Format(time.DateOnly))
		body = strings.ReplaceAll(body, `"4/11/2026"`, fmt.Sprintf(`"%d/%d/%d"`, end.Month(), end.Day(), end.Year()))
		p := filepath.Join(dir, fmt.Sprintf("%s_Top_Search_Terms_Simple_Week_%s.csv", prefix, end.Format("2006_01_02")))
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// importAll uploads the files and waits for every job; it returns the jobs as they ended.
func importAll(t *testing.T, c *testkit.Client, app *testkit.App, ws string, fields map[string]string, files ...string) []map[string]any {
	t.Helper()
	status, out := upload(t, c, app, ws, fields, files...)
	if status != http.StatusAccepted {
		t.Fatalf("upload: %d %v", status, out)
	}
	var jobs []map[string]any
	for _, j := range out["jobs"].([]any) {
		id := j.(map[string]any)["id"].(string)
		jobs = append(jobs, c.Do("GET", "/api/trends/"+ws+"/imports/"+id+"?wait=true", nil).JSON(t))
	}
	return jobs
}

func setPlan(t *testing.T, st *store.Store, ws, planName string) {
	t.Helper()
	if _, err := st.DB().Exec(st.Rebind(`delete from "billingSubscription" where "workspaceId" = ?`), ws); err != nil {
		t.Fatal(err)
	}
	if planName != "free" {
		subscribe(t, st, ws, planName)
	}
}

// get200 sends a GET and returns its JSON body, failing the test with the status and body
// when the answer is not 200.
func get200(t *testing.T, c *testkit.Client, path string) map[string]any {
	t.Helper()
	res := c.Do("GET", path, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	return res.JSON(t)
}

// refusedFor checks a 403 PLAN_LIMIT_REACHED whose message names the plan that lifts it.
func refusedFor(t *testing.T, what string, res testkit.Response, upgrade string) {
	t.Helper()
	var e struct{ Code, Message string }
	json.Unmarshal(res.Body, &e)
	if res.Status != 403 || e.Code != "PLAN_LIMIT_REACHED" || !strings.Contains(e.Message, "Upgrade to "+upgrade) {
		t.Errorf("%s: want 403 PLAN_LIMIT_REACHED naming %s, got %d %s", what, upgrade, res.Status, res.Body)
	}
}

// The Free plan shows the latest 13 periods in every answer (summary, overview, lists, exports'
// columns, history, product and brand views, root words, the watchlist's numbers, the datasets'
// period counts) and refuses questions that need older ones; Pro and Team show all history.
func TestPlanHistoryDepth(t *testing.T) {
	st := testkit.SQLite(t)
	app := testkit.Server(t, st, map[string]string{"PLANS_ENFORCED": "true"})
	c := app.SignUp(t, "depth@example.com", "password123")
	ws := personal(t, c)
	for _, j := range importAll(t, c, app, ws, nil, weeks(t, "US", 16)...) {
		if j["state"] != "done" {
			t.Fatalf("job %v", j)
		}
	}
	ds := fmt.Sprint(get200(t, c, "/api/trends/"+ws+"/datasets")["datasets"].([]any)[0].(map[string]any)["id"])
	base := "/api/trends/" + ws + "/datasets/" + ds
	if res := c.Do("POST", "/api/workspaces/"+ws+"/watchlist", map[string]string{"kind": "term", "value": "paper towels"}); res.Status != 201 {
		t.Fatalf("watch: %d %s", res.Status, res.Body)
	}
	oldest, floor := "2025-12-21", "2026-01-11" // the first week imported; the first of the latest 13

	for _, c2 := range []struct {
		plan    string
		periods int
	}{{"free", 13}, {"pro", 16}, {"team", 16}} {
		t.Run(c2.plan, func(t *testing.T) {
			setPlan(t, st, ws, c2.plan)
			limited := c2.plan == "free"
			sum := get200(t, c, base+"/summary")
			if n := len(sum["periods"].([]any)); n != c2.periods {
				t.Errorf("summary: %d periods, want %d", n, c2.periods)
			}
			if limited && sum["hiddenPeriods"] != float64(3) {
				t.Errorf("summary: hiddenPeriods %v, want 3", sum["hiddenPeriods"])
			}
			first := sum["periods"].([]any)[0].(map[string]any)["start"].(string)
			if limited != strings.HasPrefix(first, floor) {
				t.Errorf("summary: oldest period shown %s", first)
			}
			ov := get200(t, c, base+"/overview")
			if n := len(ov["summary"].(map[string]any)["periods"].([]any)); n != c2.periods {
				t.Errorf("overview: %d periods", n)
			}
			dsets := get200(t, c, "/api/trends/"+ws+"/datasets")["datasets"].([]any)
			if n := dsets[0].(map[string]any)["periods"]; n != float64(c2.periods) {
				t.Errorf("datasets: %v periods", n)
			}

			// Lists: the rank 13 periods ago is older than Free shows.
			page := get200(t, c, base+"/terms?q=paper+towels&match=prefix&limit=1")
			row := page["rows"].([]any)[0].(map[string]any)
			ago := row["ranksAgo"].([]any)
			if ago[1] == nil || limited != (ago[2] == nil) || limited != (row["changes"].([]any)[2] == nil) {
				t.Errorf("terms: ranksAgo %v changes %v", ago, row["changes"])
			}
			if want := float64(c2.periods); row["periodsPresent"] != want {
				t.Errorf("terms: periodsPresent %v, want %v", row["periodsPresent"], want)
			}
			hist := get200(t, c, base+"/history?term=paper+towels")["terms"].([]any)[0].(map[string]any)
			if n := len(hist["points"].([]any)); n != c2.periods {
				t.Errorf("history: %d points", n)
			}
			if m := hist["measures"].(map[string]any); limited != (m["ranksAgo"].([]any)[2] == nil) || m["periodsPresent"] != float64(c2.periods) {
				t.Errorf("history measures %v", m)
			}
			prod := get200(t, c, base+"/products/B0DJOYKVJ9")["terms"].([]any)
			if n := len(prod[0].(map[string]any)["points"].([]any)); n != c2.periods {
				t.Errorf("product: %d points", n)
			}
			brand := get200(t, c, base+"/brands/Juniper%20%26%20Jade")["terms"].([]any)
			if n := len(brand[0].(map[string]any)["points"].([]any)); n != c2.periods {
				t.Errorf("brand: %d points", n)
			}
			root := get200(t, c, base+"/root-words?phrase=paper")
			if n := len(root["rootWord"].(map[string]any)["points"].([]any)); n != c2.periods {
				t.Errorf("root words: %d points", n)
			}
			wlRes := c.Do("GET", "/api/workspaces/"+ws+"/watchlist", nil)
			items, _ := wlRes.JSON(t)["items"].([]any)
			if len(items) != 1 {
				t.Fatalf("watchlist: %d %s", wlRes.Status, wlRes.Body)
			}
			wl := items[0].(map[string]any)
			if limited != (wl["latest"].(map[string]any)["ranksAgo"].([]any)[2] == nil) {
				t.Errorf("watchlist latest %v", wl["latest"])
			}

			// Questions that need older periods.
			for _, q := range []string{"/terms?window=13", "/terms?sort=change52", "/terms?list=coming-up", "/terms?minPeriods=2",
				"/terms?at=" + oldest, "/history?term=paper+towels&at=" + oldest} {
				res := c.Do("GET", base+q, nil)
				if limited {
					refusedFor(t, q, res, "Pro")
				} else if res.Status != 200 {
					t.Errorf("%s: %d %s", q, res.Status, res.Body)
				}
			}
			if res := c.Do("GET", base+"/terms?at="+floor, nil); res.Status != 200 {
				t.Errorf("a shown period: %d %s", res.Status, res.Body)
			}
			if !limited { // exports are Pro's: the 13-ago column is filled
				csv := string(c.Do("GET", base+"/terms.csv?q=paper+towels&match=prefix", nil).Body)
				if lines := strings.Split(csv, "\n"); len(lines) < 2 || strings.Split(lines[1], ",")[4] == "" {
					t.Errorf("export: %q", csv)
				}
			}
		})
	}
}

// Free and Pro hold one dataset (marketplace) per workspace, Team any number: a report of a
// second marketplace is refused at upload when the form names it, or fails its job when the
// file does, naming Team.
func TestPlanDatasets(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"PLANS_ENFORCED": "true"})
		for _, c2 := range []struct {
			plan    string
			allowed bool
		}{{"free", false}, {"pro", false}, {"team", true}} {
			t.Run(c2.plan, func(t *testing.T) {
				c := app.SignUp(t, "ds-"+c2.plan+"@example.com", "password123")
				ws := personal(t, c)
				setPlan(t, st, ws, c2.plan)
				if j := importAll(t, c, app, ws, nil, weeks(t, "US", 1)...); j[0]["state"] != "done" {
					t.Fatalf("first dataset: %v", j)
				}
				// The file names its marketplace (UK): checked when its job runs.
				job := importAll(t, c, app, ws, nil, weeks(t, "UK", 1)...)[0]
				if c2.allowed != (job["state"] == "done") {
					t.Errorf("second marketplace: %v", job)
				}
				if !c2.allowed && (job["errorCode"] != "PLAN_LIMIT_REACHED" || !strings.Contains(job["error"].(string), "Upgrade to Team")) {
					t.Errorf("refused job: %v", job)
				}
				// The form names it (DE): refused before anything is queued.
				plain := filepath.Join(t.TempDir(), "report.csv")
				data, _ := os.ReadFile(weeks(t, "US", 1)[0])
				os.WriteFile(plain, data, 0o600)
				status, out := upload(t, c, app, ws, map[string]string{"marketplace": "DE"}, plain)
				if c2.allowed != (status == 202) || !c2.allowed && (status != 403 || out["code"] != "PLAN_LIMIT_REACHED" || !strings.Contains(fmt.Sprint(out["message"]), "Upgrade to Team")) {
					t.Errorf("form marketplace: %d %v", status, out)
				}
				// More periods of the dataset it has are always welcome.
				if j := importAll(t, c, app, ws, nil, weeks(t, "US", 2)[0]); j[0]["state"] != "done" {
					t.Errorf("same dataset: %v", j)
				}
			})
		}
	})
}

// Alert digests are Pro's and Team's: switching them on from Free answers 403 naming Pro
// (switching them off is always allowed); the digests themselves follow the workspace's plan
// (alerts.TestDigestsFollowTheWorkspacePlan).
func TestPlanAlerts(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"PLANS_ENFORCED": "true"})
		for _, p := range []string{"free", "pro", "team"} {
			t.Run(p, func(t *testing.T) {
				c := app.SignUp(t, "alerts-"+p+"@example.com", "password123")
				setPlan(t, st, personal(t, c), p)
				for _, f := range []string{"import", "weekly"} {
					res := c.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": f, "threshold": 20})
					if p == "free" {
						refusedFor(t, f, res, "Pro")
					} else if res.Status != 200 {
						t.Errorf("%s: %d %s", f, res.Status, res.Body)
					}
				}
				if res := c.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": "off", "threshold": 20}); res.Status != 200 {
					t.Errorf("off: %d %s", res.Status, res.Body)
				}
			})
		}
	})
}
