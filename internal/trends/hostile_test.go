package trends_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
	rt "github.com/sellertrends/sellertrends/internal/trends/report/reporttest"
)

// Invalid UTF-8 in any path segment or query parameter of any route answers 400 naming it
// (it used to reach DuckDB and answer 500).
func TestInvalidUTF8OnEveryRoute(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	ds := importSeries(t, c, app, ws)
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct{ Name, In string }
		}
	}
	if err := json.Unmarshal(app.Client(t).Do("GET", "/api/openapi.json", nil).Body, &doc); err != nil || len(doc.Paths) < 10 {
		t.Fatalf("openapi: %v", err)
	}
	valid := map[string]string{"ws": ws, "ds": ds, "asin": "B0DJOYKVJ9", "brand": "Vantro", "start": "2026-04-05", "job": "nope", "id": "nope"}
	checked := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			var probes []struct{ name, url string }
			for _, p := range op.Parameters {
				u := path
				for name, v := range valid {
					if name == p.Name && p.In == "path" {
						v = "%FF%FE"
					}
					u = strings.ReplaceAll(u, "{"+name+"}", v)
				}
				if p.In == "query" {
					u += "?" + p.Name + "=%FF"
				}
				probes = append(probes, struct{ name, url string }{p.Name, u})
			}
			if len(op.Parameters) == 0 { // every route reads its query through the same check
				probes = append(probes, struct{ name, url string }{"x", path + "?x=a%FFb"})
			}
			for _, p := range probes {
				res := c.Do(strings.ToUpper(method), p.url, "{}")
				if res.Status != 400 || !strings.HasPrefix(res.JSON(t)["message"].(string), p.name+":") {
					t.Errorf("%s %s: %d %s, want 400 naming %s", method, p.url, res.Status, res.Body, p.name)
				}
				checked++
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d probes", checked)
	}
	// The questions that answered 500 before.
	for _, u := range []string{"/terms?brand=%FF", "/history?term=%FF", "/brands/%FF%FE", "/root-words?phrase=%C3"} {
		if res := c.Do("GET", "/api/trends/"+ws+"/datasets/"+ds+u, nil); res.Status != 400 {
			t.Errorf("%s: %d %s", u, res.Status, res.Body)
		}
	}
}

// An uploaded file's name and the form's fields must be UTF-8 too.
func TestUploadNamesMustBeUTF8(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	dir := t.TempDir()
	bad := filepath.Join(dir, "US_Top_Search_Terms_\xff_Week.csv")
	if err := os.WriteFile(bad, rt.Report(3), 0o600); err != nil {
		t.Fatal(err)
	}
	if status, out := upload(t, c, app, ws, nil, bad); status != 400 || !strings.HasPrefix(fmt.Sprint(out["message"]), "files:") {
		t.Errorf("file name: %d %v", status, out)
	}
	good := filepath.Join(dir, rt.WeekName)
	os.WriteFile(good, rt.Report(3), 0o600)
	if status, out := upload(t, c, app, ws, map[string]string{"marketplace": "amazon.com\xfe"}, good); status != 400 || !strings.HasPrefix(fmt.Sprint(out["message"]), "marketplace:") {
		t.Errorf("field: %d %v", status, out)
	}
	if entries, _ := os.ReadDir(filepath.Join(app.Config.DataDir, "uploads")); len(entries) != 0 {
		t.Errorf("uploads left behind: %v", entries)
	}
}

// Terms and names that a spreadsheet would run as formulas are exported as text (OWASP), and the
// export reads back as CSV with every other cell unchanged.
func TestExportNeutralisesFormulas(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	terms := []string{"=1+2", "+sum(a1)", "-2+3 shoes", "@sum(a1)", "yoga mat", "a=b"}
	var file strings.Builder
	file.WriteString(rt.Meta + rt.Header)
	for i, term := range terms {
		fmt.Fprintf(&file, `"%d","%s","=brand%d","","","@cat","","","-B0%08d","t","10","1","","","","","","","","","4/11/2026"`+"\n", i+1, term, i, i)
	}
	path := filepath.Join(t.TempDir(), rt.WeekName)
	os.WriteFile(path, []byte(file.String()), 0o600)
	status, out := upload(t, c, app, ws, nil, path)
	if status != 202 {
		t.Fatalf("upload %d %v", status, out)
	}
	id := out["jobs"].([]any)[0].(map[string]any)["id"].(string)
	if job := c.Do("GET", "/api/trends/"+ws+"/imports/"+id+"?wait=true", nil).JSON(t); job["state"] != "done" {
		t.Fatalf("job %v", job)
	}
	ds := fmt.Sprint(c.Do("GET", "/api/trends/"+ws+"/datasets", nil).JSON(t)["datasets"].([]any)[0].(map[string]any)["id"])
	res := c.Do("GET", "/api/trends/"+ws+"/datasets/"+ds+"/terms.csv?sort=rank", nil)
	recs, err := csv.NewReader(strings.NewReader(string(res.Body))).ReadAll()
	if err != nil || res.Status != 200 || len(recs) != len(terms)+1 {
		t.Fatalf("export %d %v: %s", res.Status, err, res.Body)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, rec := range recs[1:] {
		want := terms[i]
		if strings.ContainsAny(want[:1], "=+-@") {
			want = "'" + want
		}
		if rec[col["term"]] != want || rec[col["rank"]] != fmt.Sprint(i+1) {
			t.Errorf("row %d: term %q rank %q, want %q", i+1, rec[col["term"]], rec[col["rank"]], want)
		}
		if rec[col["top_brand"]] != fmt.Sprintf("'=brand%d", i) || rec[col["top_category"]] != "'@cat" || rec[col["top_asin"]] != fmt.Sprintf("'-B0%08d", i) {
			t.Errorf("row %d: %q", i+1, rec)
		}
	}
	// The API answers the text as it is; only the spreadsheet file guards it.
	page := c.Do("GET", "/api/trends/"+ws+"/datasets/"+ds+"/terms?sort=rank&limit=1", nil).JSON(t)
	if page["rows"].([]any)[0].(map[string]any)["term"] != "=1+2" {
		t.Errorf("api: %v", page["rows"])
	}
}
