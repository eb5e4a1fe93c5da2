package trends_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// upload posts files as a multipart form and returns the job ids.
func upload(t *testing.T, c *testkit.Client, app *testkit.App, ws string, fields map[string]string, files ...string) (int, map[string]any) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	for _, f := range files {
		part, _ := mw.CreateFormFile("files", filepath.Base(f))
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(data)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", app.URL+"/api/trends/"+ws+"/imports", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", app.URL)
	res, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func personal(t *testing.T, c *testkit.Client) string {
	t.Helper()
	res := c.Do("GET", "/api/workspaces", nil)
	var ws []map[string]any
	if err := json.Unmarshal(res.Body, &ws); err != nil || len(ws) != 2 || ws[1]["id"] != "demo" || ws[1]["readOnly"] != true {
		t.Fatalf("workspaces: %s", res.Body)
	}
	return ws[0]["id"].(string)
}

// importSeries uploads two weeks and waits for both jobs; it returns the dataset id.
func importSeries(t *testing.T, c *testkit.Client, app *testkit.App, ws string) string {
	t.Helper()
	status, out := upload(t, c, app, ws, nil, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv", "testdata/US_Top_Search_Terms_Simple_Week_2026_04_18.csv")
	if status != http.StatusAccepted {
		t.Fatalf("upload: %d %v", status, out)
	}
	for _, j := range out["jobs"].([]any) {
		id := j.(map[string]any)["id"].(string)
		job := c.Do("GET", "/api/trends/"+ws+"/imports/"+id+"?wait=true", nil).JSON(t)
		if job["state"] != "done" {
			t.Fatalf("job %v", job)
		}
	}
	ds := c.Do("GET", "/api/trends/"+ws+"/datasets", nil).JSON(t)["datasets"].([]any)
	if len(ds) != 1 {
		t.Fatalf("datasets %v", ds)
	}
	return fmt.Sprint(ds[0].(map[string]any)["id"])
}

func TestUploadThenAskEveryQuestion(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "seller@example.com", "password123")
		ws := personal(t, c)
		ds := importSeries(t, c, app, ws)
		base := "/api/trends/" + ws + "/datasets/" + ds

		sum := c.Do("GET", base+"/summary", nil).JSON(t)
		if len(sum["periods"].([]any)) != 2 || len(sum["gaps"].([]any)) != 0 {
			t.Errorf("summary %v", sum)
		}
		hist := c.Do("GET", base+"/history?term=yoga+mat&term=snow+shovel", nil).JSON(t)["terms"].([]any)
		yoga := hist[0].(map[string]any)["points"].([]any)
		if len(hist) != 2 || len(yoga) != 2 || yoga[1].(map[string]any)["rank"] != float64(125) {
			t.Errorf("history %v", hist)
		}
		page := c.Do("GET", base+"/terms?q=yoga&sort=change1&order=desc&limit=5", nil).JSON(t)
		if page["total"].(float64) < 1 || page["rows"].([]any)[0].(map[string]any)["term"] != "yoga mat" {
			t.Errorf("explore %v", page)
		}
		ov := c.Do("GET", base+"/overview", nil).JSON(t)
		if ov["risers"].(map[string]any)["total"].(float64) == 0 {
			t.Errorf("overview has no risers: %v", ov["risers"])
		}
		res := c.Do("GET", base+"/terms.csv?q=yoga", nil)
		lines := strings.Split(strings.TrimSpace(string(res.Body)), "\n")
		if res.Status != 200 || !strings.HasPrefix(lines[0], "term,rank,") || !strings.HasPrefix(lines[1], "yoga mat,125,") {
			t.Errorf("csv %d %q", res.Status, lines)
		}
		if p := c.Do("GET", base+"/products/B0DJOYKVJ9", nil); p.Status != 200 || len(p.JSON(t)["terms"].([]any)) == 0 {
			t.Errorf("product %d %s", p.Status, p.Body)
		}
		if b := c.Do("GET", base+"/brands/Juniper%20%26%20Jade", nil); b.Status != 200 {
			t.Errorf("brand %d %s", b.Status, b.Body)
		}
		if rw := c.Do("GET", base+"/root-words?phrase=towels", nil); rw.Status != 200 || rw.JSON(t)["estimate"] == nil {
			t.Errorf("root words %d %s", rw.Status, rw.Body)
		}
		if d := c.Do("DELETE", base+"/periods/2026-04-05", nil); d.Status != 204 {
			t.Errorf("delete period: %d %s", d.Status, d.Body)
		}
		if sum := c.Do("GET", base+"/summary", nil).JSON(t); len(sum["periods"].([]any)) != 1 {
			t.Errorf("after delete: %v", sum["periods"])
		}
	})
}

func TestBadUploadsFailClearly(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"MAX_UPLOAD_BYTES": "50000"})
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	status, out := upload(t, c, app, ws, nil, "../../internal/trends/report/testdata/US_Search_Query_Performance_Brand_View_Simple_Week_2026_04_11.csv")
	if status != 202 {
		t.Fatalf("%d %v", status, out)
	}
	id := out["jobs"].([]any)[0].(map[string]any)["id"].(string)
	job := c.Do("GET", "/api/trends/"+ws+"/imports/"+id+"?wait=true", nil).JSON(t)
	if job["state"] != "failed" || !strings.Contains(job["error"].(string), "Search Query Performance") {
		t.Errorf("SQP job %v", job)
	}
	if status, out := upload(t, c, app, ws, nil, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv", "testdata/US_Top_Search_Terms_Simple_Week_2026_04_18.csv"); status != 413 {
		t.Errorf("over MAX_UPLOAD_BYTES: %d %v", status, out)
	}
	if status, out := upload(t, c, app, ws, map[string]string{"period": "someday"}, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv"); status != 400 || !strings.HasPrefix(out["message"].(string), "period:") {
		t.Errorf("bad period: %d %v", status, out)
	}
	entries, _ := os.ReadDir(filepath.Join(app.Config.DataDir, "uploads"))
	if len(entries) != 0 {
		t.Errorf("uploads left behind: %v", entries)
	}
}

func TestEveryParameterIsValidated(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	ds := importSeries(t, c, app, ws)
	base := "/api/trends/" + ws + "/datasets/" + ds
	for _, tc := range []struct{ path, param string }{
		{"/terms?window=2", "window"}, {"/terms?limit=0", "limit"}, {"/terms?limit=5000", "limit"}, {"/terms?offset=-1", "offset"},
		{"/terms?sort=drop+table", "sort"}, {"/terms?order=up", "order"}, {"/terms?match=fuzzy", "match"}, {"/terms?list=hot", "list"},
		{"/terms?minRank=x", "minRank"}, {"/terms?minRank=10&maxRank=5", "minRank"}, {"/terms?minPeriods=0", "minPeriods"},
		{"/terms?q=" + strings.Repeat("a", 300), "q"}, {"/terms.csv?window=3", "window"}, {"/history", "term"},
		{"/history?term=a&term=b&term=c&term=d&term=e&term=f&term=g&term=h&term=i&term=j&term=k", "term"},
		{"/root-words", "phrase"}, {"/periods/yesterday", "start"},
	} {
		method := "GET"
		if strings.HasPrefix(tc.path, "/periods") {
			method = "DELETE"
		}
		res := c.Do(method, base+tc.path, nil)
		if res.Status != 400 || !strings.HasPrefix(res.JSON(t)["message"].(string), tc.param+":") {
			t.Errorf("%s: %d %.200s, want 400 naming %s", tc.path, res.Status, res.Body, tc.param)
		}
	}
	if res := c.Do("GET", "/api/trends/"+ws+"/datasets/abc/summary", nil); res.Status != 400 {
		t.Errorf("dataset id: %d", res.Status)
	}
	if res := c.Do("GET", "/api/trends/"+ws+"/datasets/999/summary", nil); res.Status != 404 {
		t.Errorf("unknown dataset: %d", res.Status)
	}
}

// Access on every route of the table: anonymous 401, someone else's workspace 404, demo writes
// 403; the caller's own alert settings 401 without a session.
func TestAccessOnEveryRoute(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	owner := app.SignUp(t, "owner@example.com", "password123")
	ws := personal(t, owner)
	ds := importSeries(t, owner, app, ws)
	other := app.SignUp(t, "other@example.com", "password123")
	personal(t, other)
	var doc map[string]any
	json.Unmarshal(app.Client(t).Do("GET", "/api/openapi.json", nil).Body, &doc)
	paths := doc["paths"].(map[string]any)
	if len(paths) < 10 {
		t.Fatalf("openapi paths: %v", paths)
	}
	fill := func(p, workspace string) string {
		r := strings.NewReplacer("{ws}", workspace, "{ds}", ds, "{asin}", "B0DJOYKVJ9", "{brand}", "Vantro", "{start}", "2026-04-05", "{job}", "nope", "{id}", "nope")
		return r.Replace(p) + "?term=yoga+mat&phrase=towels"
	}
	for path, ops := range paths {
		for method, op := range ops.(map[string]any) {
			m := strings.ToUpper(method)
			// A body of the route's declared type (415 answers any other, before access checks).
			body, ctype := "{}", "application/json"
			if rb, _ := op.(map[string]any)["requestBody"].(map[string]any); rb != nil && rb["content"].(map[string]any)["multipart/form-data"] != nil {
				body, ctype = "--x--\r\n", "multipart/form-data; boundary=x"
			}
			if path == "/api/workspaces" || path == "/api/alerts/settings" { // the caller's own, no workspace
				if res := app.Client(t).Do(m, path, nil); res.Status != 401 {
					t.Errorf("anonymous %s %s: %d", m, path, res.Status)
				}
				continue
			}
			if res := app.Client(t).Do(m, fill(path, ws), body, "Content-Type", ctype); res.Status != 401 {
				t.Errorf("anonymous %s %s: %d", m, path, res.Status)
			}
			if res := other.Do(m, fill(path, ws), body, "Content-Type", ctype); res.Status != 404 {
				t.Errorf("other user %s %s: %d %s", m, path, res.Status, res.Body)
			}
			// On the demo, the watchlist routes write the caller's own list (watchlist_test.go).
			if m != "GET" && !strings.HasPrefix(path, "/api/workspaces/{ws}/watchlist") {
				if res := other.Do(m, fill(path, "demo"), body, "Content-Type", ctype); res.Status != 403 {
					t.Errorf("demo write %s %s: %d", m, path, res.Status)
				}
			}
		}
	}
}

func TestWatchlist(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"PLANS_ENFORCED": "true"})
		c := app.SignUp(t, "seller@example.com", "password123")
		ws := personal(t, c)
		importSeries(t, c, app, ws)
		path := "/api/workspaces/" + ws + "/watchlist"
		res := c.Do("POST", path, map[string]string{"kind": "term", "value": "yoga mat"})
		if res.Status != 201 {
			t.Fatalf("add: %d %s", res.Status, res.Body)
		}
		id := res.JSON(t)["id"].(string)
		if res := c.Do("POST", path, map[string]string{"kind": "term", "value": "yoga mat"}); res.Status != 409 {
			t.Errorf("duplicate: %d", res.Status)
		}
		if res := c.Do("POST", path, map[string]string{"kind": "shoe", "value": "x"}); res.Status != 400 || !strings.HasPrefix(res.JSON(t)["message"].(string), "kind:") {
			t.Errorf("bad kind: %d %s", res.Status, res.Body)
		}
		list := c.Do("GET", path, nil).JSON(t)
		item := list["items"].([]any)[0].(map[string]any)
		if item["value"] != "yoga mat" || item["latest"].(map[string]any)["rank"] != float64(125) {
			t.Errorf("list %v", list)
		}
		for i := 0; i < 9; i++ {
			c.Do("POST", path, map[string]string{"kind": "asin", "value": fmt.Sprintf("B0LIMIT%03d", i)})
		}
		if res := c.Do("POST", path, map[string]string{"kind": "brand", "value": "one too many"}); res.Status != 403 || res.JSON(t)["code"] != "PLAN_LIMIT_REACHED" || !strings.Contains(string(res.Body), "Upgrade to Pro") {
			t.Errorf("limit: %d %s", res.Status, res.Body)
		}
		if res := c.Do("DELETE", path+"/"+id, nil); res.Status != 204 {
			t.Errorf("remove: %d", res.Status)
		}
		if res := c.Do("DELETE", path+"/"+id, nil); res.Status != 404 {
			t.Errorf("remove twice: %d", res.Status)
		}
		_ = io.EOF
	})
}

// The OpenAPI document lists exactly the routes the server answers.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "a@example.com", "password123")
	var doc map[string]any
	res := app.Client(t).Do("GET", "/api/openapi.json", nil)
	if err := json.Unmarshal(res.Body, &doc); err != nil || doc["openapi"] != "3.1.0" {
		t.Fatalf("document: %s", res.Body)
	}
	for path, ops := range doc["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			p := strings.NewReplacer("{ws}", "demo", "{ds}", "1", "{asin}", "X", "{brand}", "X", "{start}", "2026-01-04", "{job}", "x", "{id}", "x").Replace(path)
			res := c.Do(strings.ToUpper(method), p, "{}")
			if res.Status == 404 && res.JSON(t)["message"] == "Not Found" || res.Status == 405 {
				t.Errorf("%s %s is documented but not served (%d)", method, path, res.Status)
			}
		}
	}
	if res := c.Do("GET", "/api/trends/demo/undocumented", nil); res.Status != 404 {
		t.Errorf("an unknown route answered %d", res.Status)
	}
}
