package trends_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// waitJob uploads files and waits for the single job they make.
func waitJob(t *testing.T, c *testkit.Client, app *testkit.App, ws string, fields map[string]string, file string) map[string]any {
	t.Helper()
	status, out := upload(t, c, app, ws, fields, file)
	if status != http.StatusAccepted {
		t.Fatalf("upload: %d %v", status, out)
	}
	id := out["jobs"].([]any)[0].(map[string]any)["id"].(string)
	return c.Do("GET", "/api/trends/"+ws+"/imports/"+id+"?wait=true", nil).JSON(t)
}

// A failed import job says where, in separate fields: line, column (by its header) and value.
func TestFailedJobNamesLineColumnAndValue(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	data, err := os.ReadFile("testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	os.WriteFile(bad, []byte(strings.Replace(string(data), `"38.62"`, `"38,62"`, 1)), 0o644)
	job := waitJob(t, c, app, ws, nil, bad)
	if job["state"] != "failed" || job["line"] != float64(3) || job["column"] != "Top Clicked Product #1: Click Share" || job["value"] != "38,62" {
		t.Errorf("job %v", job)
	}
	// Cut short, the file is refused in lenient mode too, naming the line where it breaks.
	cut := filepath.Join(dir, "cut", "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	os.MkdirAll(filepath.Dir(cut), 0o755)
	os.WriteFile(cut, data[:len(data)-60], 0o644)
	job = waitJob(t, c, app, ws, map[string]string{"lenient": "true"}, cut)
	if job["state"] != "failed" || job["line"] == nil || job["column"] == nil || !strings.Contains(job["error"].(string), "cut short") {
		t.Errorf("truncated, lenient: %v", job)
	}
	if ds := c.Do("GET", "/api/trends/"+ws+"/datasets", nil).JSON(t)["datasets"].([]any); len(ds) != 0 {
		t.Errorf("a refused file made a dataset: %v", ds)
	}
}

// The numbers an API answer gives: blank concentrations as null (and empty in the CSV), the
// closer ratio beside each product's shares, and earlier periods' measures with at=.
func TestNumbersInTheAPI(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	base := "/api/trends/" + ws + "/datasets/" + importSeries(t, c, app, ws)

	kindle := c.Do("GET", base+"/terms?q=kindle+unlimited", nil).JSON(t)["rows"].([]any)[0].(map[string]any)
	if v, ok := kindle["conversionConcentration"]; !ok || v != nil || kindle["clickConcentration"] == nil {
		t.Errorf("kindle unlimited books: %v", kindle)
	}
	res := c.Do("GET", base+"/terms.csv?q=kindle+unlimited", nil)
	lines := strings.Split(strings.TrimSpace(string(res.Body)), "\n")
	header, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	for i, h := range header {
		if h == "conversion_concentration" && row[i] != "" {
			t.Errorf("CSV conversion concentration %q, want empty", row[i])
		}
		if h == "click_concentration" && row[i] == "" {
			t.Error("CSV click concentration empty")
		}
	}

	h := c.Do("GET", base+"/history?term=paper+towels", nil).JSON(t)["terms"].([]any)[0].(map[string]any)
	points := h["points"].([]any)
	product := points[len(points)-1].(map[string]any)["products"].([]any)[0].(map[string]any)
	if r, ok := product["closerRatio"].(float64); !ok || r <= 0 {
		t.Errorf("history product %v", product)
	}
	if h["measures"].(map[string]any)["rank"] == nil {
		t.Errorf("history measures %v", h["measures"])
	}
	p := c.Do("GET", base+"/products/B0DJOYKVJ9", nil).JSON(t)
	point := p["terms"].([]any)[0].(map[string]any)["points"].([]any)[0].(map[string]any)
	if _, ok := point["closerRatio"]; !ok {
		t.Errorf("product point %v", point)
	}

	// Two weeks are loaded: at= a day of the first answers the first week's measures.
	latest := c.Do("GET", base+"/terms?q=yoga+mat", nil).JSON(t)["rows"].([]any)[0].(map[string]any)
	first := c.Do("GET", base+"/terms?q=yoga+mat&at=2026-04-07", nil).JSON(t)["rows"].([]any)[0].(map[string]any)
	if latest["rank"] != float64(125) || first["rank"] == latest["rank"] || first["ranksAgo"].([]any)[0] != nil {
		t.Errorf("yoga mat now %v, at week 1 %v", latest, first)
	}
	hist := c.Do("GET", base+"/history?term=yoga+mat&at=2026-04-07", nil).JSON(t)["terms"].([]any)[0].(map[string]any)
	if len(hist["points"].([]any)) != 1 || hist["measures"].(map[string]any)["rank"] != first["rank"] {
		t.Errorf("history at week 1: %v", hist)
	}
	wantRow := fmt.Sprintf("yoga mat,%v,", first["rank"])
	if res := c.Do("GET", base+"/terms.csv?at=2026-04-07&q=yoga+mat", nil); res.Status != 200 || !strings.Contains(string(res.Body), "\n"+wantRow) {
		t.Errorf("csv at week 1: %d %s, want a row starting %q", res.Status, res.Body, wantRow)
	}
	for _, path := range []string{"/terms?at=2020-01-01", "/terms.csv?at=2020-01-01", "/history?term=yoga+mat&at=2020-01-01", "/terms?at=yesterday", "/history?term=a&at=2026-13-01"} {
		if res := c.Do("GET", base+path, nil); res.Status != 400 || !strings.HasPrefix(res.JSON(t)["message"].(string), "at:") {
			t.Errorf("%s: %d %s, want 400 naming at", path, res.Status, res.Body)
		}
	}
}

// A lenient import of an SP-API document cut inside a record fails (it used to loop for ever
// and hold the import worker), and the next upload is imported.
func TestTruncatedJSONDoesNotHoldTheWorker(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	const name = "GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK_2026-04-05_2026-04-11.json"
	data, err := os.ReadFile(filepath.Join("report/testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), name)
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	job := waitJob(t, c, app, ws, map[string]string{"lenient": "true"}, cut)
	if job["state"] != "failed" || job["record"] == nil || !strings.Contains(job["error"].(string), "truncated") {
		t.Errorf("cut JSON, lenient: %v", job)
	}
	if job := waitJob(t, c, app, ws, nil, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv"); job["state"] != "done" {
		t.Errorf("the next import: %v", job)
	}
}
