package trends_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// openAPIDoc is the served document, raw and as the validator reads it.
type openAPIDoc struct {
	Paths map[string]map[string]struct {
		Responses   map[string]any `json:"responses"`
		RequestBody *struct {
			Content map[string]any `json:"content"`
		} `json:"requestBody"`
	} `json:"paths"`
	compiler *jsonschema.Compiler
}

const docURL = "https://sellertrends.test/openapi.json"

func loadOpenAPI(t *testing.T, app *testkit.App) *openAPIDoc {
	t.Helper()
	raw := app.Client(t).Do("GET", "/api/openapi.json", nil).Body
	var doc openAPIDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	doc.compiler = jsonschema.NewCompiler()
	if err := doc.compiler.AddResource(docURL, v); err != nil {
		t.Fatal(err)
	}
	return &doc
}

// schema compiles the documented body of one answer.
func (d *openAPIDoc) schema(t *testing.T, method, path string, status int, media string) *jsonschema.Schema {
	t.Helper()
	ptr := func(s string) string {
		return url.PathEscape(strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"))
	}
	loc := fmt.Sprintf("%s#/paths/%s/%s/responses/%d/content/%s/schema", docURL, ptr(path), strings.ToLower(method), status, ptr(media))
	sch, err := d.compiler.Compile(loc)
	if err != nil {
		t.Fatalf("%s %s %d: no %s body documented: %v", method, path, status, media, err)
	}
	return sch
}

// camelCase is a JSON key as the API writes them: lowerCamelCase, never PascalCase or snake_case.
var camelCase = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)

// badKeys lists every key of a JSON value, at any depth, that is not camelCase.
func badKeys(v any, at string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if !camelCase.MatchString(k) {
				out = append(out, at+"."+k)
			}
			out = append(out, badKeys(child, at+"."+k)...)
		}
	case []any:
		for i, child := range x {
			out = append(out, badKeys(child, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return out
}

// Every route is called for real, successfully and in each way it can fail. Each answer's status
// must be one the OpenAPI document lists for the route (and each listed status must be seen),
// each JSON body must validate against the documented schema, and every key of every body must
// be camelCase.
func TestEveryAnswerMatchesTheDocument(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), map[string]string{"MAX_UPLOAD_BYTES": "100000", "IMPORT_QUEUE_PER_USER": "3"})
	owner := app.SignUp(t, "owner@example.com", "password123")
	ws := personal(t, owner)
	ds := importSeries(t, owner, app, ws)
	other := app.SignUp(t, "other@example.com", "password123")
	personal(t, other)
	anon := app.Client(t)
	// A member of the owner's organization whose custom role grants nothing on its data.
	org := orgCreate(t, owner, "Shape")
	if res := owner.Do("POST", orgAPI+"create-role", map[string]any{"organizationId": org, "role": "outside", "permission": map[string][]string{"team": {"create"}}}); res.Status != 200 {
		t.Fatalf("create-role: %d %s", res.Status, res.Body)
	}
	powerless := app.SignUp(t, "powerless@example.com", "password123")
	orgJoin(t, owner, powerless, org, "powerless@example.com", "outside")
	doc := loadOpenAPI(t, app)

	base := "/api/trends/{ws}/datasets/{ds}"
	fill := func(p, workspace string) string {
		return strings.NewReplacer("{ws}", workspace, "{ds}", ds, "{asin}", "B0DJOYKVJ9", "{brand}", "Juniper%20%26%20Jade", "{start}", "2026-04-05").Replace(p)
	}
	seen := map[string]map[int]bool{} // "METHOD path" -> statuses answered
	check := func(method, path string, res testkit.Response) {
		t.Helper()
		key := method + " " + path
		if seen[key] == nil {
			seen[key] = map[int]bool{}
		}
		seen[key][res.Status] = true
		media := strings.TrimSpace(strings.Split(res.Header.Get("Content-Type"), ";")[0])
		if res.Status == 204 || media != "application/json" {
			if res.Status != 204 && !(media == "text/csv" && res.Status == 200) {
				t.Errorf("%s: %d answered %q", key, res.Status, media)
			}
			return
		}
		var body any
		if err := json.Unmarshal(res.Body, &body); err != nil {
			t.Errorf("%s: %d body is not JSON: %s", key, res.Status, res.Body)
			return
		}
		if bad := badKeys(body, "$"); len(bad) > 0 {
			t.Errorf("%s: keys not in camelCase: %v", key, bad)
		}
		if _, documented := doc.Paths[path][strings.ToLower(method)].Responses[fmt.Sprint(res.Status)]; !documented {
			return // reported below with the statuses
		}
		if err := doc.schema(t, method, path, res.Status, media).Validate(body); err != nil {
			t.Errorf("%s: %d body does not match the document: %v\n%.600s", key, res.Status, err, res.Body)
		}
	}

	// Successes, in an order where each route has what it needs.
	for _, p := range []string{"/api/workspaces", "/api/trends/{ws}/datasets", base + "/summary", base + "/overview", base + "/terms", base + "/terms.csv",
		base + "/products/{asin}", base + "/brands/{brand}", "/api/trends/{ws}/imports", "/api/workspaces/{ws}/watchlist"} {
		check("GET", p, owner.Do("GET", fill(p, ws)+"?q=yoga", nil))
	}
	check("GET", base+"/history", owner.Do("GET", fill(base, ws)+"/history?term=yoga+mat&term=not+there", nil))
	check("GET", base+"/root-words", owner.Do("GET", fill(base, ws)+"/root-words?phrase=towels", nil))
	check("GET", base+"/names", owner.Do("GET", fill(base, ws)+"/names?kind=brand&q=a", nil))
	status, out := upload(t, owner, app, ws, nil, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	raw, _ := json.Marshal(out)
	check("POST", "/api/trends/{ws}/imports", testkit.Response{Status: status, Header: jsonHeader, Body: raw})
	job := out["jobs"].([]any)[0].(map[string]any)["id"].(string)
	check("GET", "/api/trends/{ws}/imports/{job}", owner.Do("GET", "/api/trends/"+ws+"/imports/"+job+"?wait=true", nil))
	check("GET", "/api/trends/{ws}/imports", owner.Do("GET", "/api/trends/"+ws+"/imports", nil))                  // with a finished job's results
	check("DELETE", "/api/trends/{ws}/imports/{job}", owner.Do("DELETE", "/api/trends/"+ws+"/imports/"+job, nil)) // finished: left as it is
	// More files than the user's queue has room for (IMPORT_QUEUE_PER_USER=3).
	tiny := make([]string, 4)
	for i := range tiny {
		tiny[i] = filepath.Join(t.TempDir(), fmt.Sprintf("tiny%d.csv", i))
		os.WriteFile(tiny[i], []byte("x\n"), 0o600)
	}
	status, out = upload(t, owner, app, ws, nil, tiny...)
	raw, _ = json.Marshal(out)
	check("POST", "/api/trends/{ws}/imports", testkit.Response{Status: status, Header: jsonHeader, Body: raw})
	watch := "/api/workspaces/" + ws + "/watchlist"
	added := owner.Do("POST", watch, map[string]string{"kind": "term", "value": "yoga mat"})
	check("POST", "/api/workspaces/{ws}/watchlist", added)
	check("GET", "/api/workspaces/{ws}/watchlist", owner.Do("GET", watch, nil)) // with an item and its latest move
	team := "/api/workspaces/" + org + "/team-members?team=" + teamWith(t, owner, org, "Shape team")
	check("GET", "/api/workspaces/{ws}/team-members", owner.Do("GET", team, nil))
	check("GET", "/api/workspaces/{ws}/team-members", powerless.Do("GET", team, nil)) // not in the team
	check("POST", "/api/workspaces/{ws}/watchlist", owner.Do("POST", watch, map[string]string{"kind": "term", "value": "yoga mat"}))
	check("DELETE", "/api/workspaces/{ws}/watchlist/{id}", owner.Do("DELETE", watch+"/"+fmt.Sprint(added.JSON(t)["id"]), nil))
	check("DELETE", base+"/periods/{start}", owner.Do("DELETE", fill(base, ws)+"/periods/2026-04-05", nil))
	settings := map[string]any{"frequency": "weekly", "threshold": 30}
	check("GET", "/api/alerts/settings", owner.Do("GET", "/api/alerts/settings", nil))
	check("PUT", "/api/alerts/settings", owner.Do("PUT", "/api/alerts/settings", settings))
	check("PUT", "/api/alerts/settings", owner.Do("PUT", "/api/alerts/settings", settings, "Origin", "https://evil.example"))
	// Too large an upload.
	status, out = upload(t, owner, app, ws, nil, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv", "testdata/US_Top_Search_Terms_Simple_Week_2026_04_18.csv", "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	raw, _ = json.Marshal(out)
	check("POST", "/api/trends/{ws}/imports", testkit.Response{Status: status, Header: jsonHeader, Body: raw})

	// Failures every route shares: no session, someone else's workspace, the read-only demo,
	// invalid text, and for dataset routes a bad or unknown dataset id; for writes, a request
	// from another site and a body of another media type than the route declares. Each request
	// carries a body of the declared type (an empty form for the upload).
	for path, ops := range doc.Paths {
		for m, op := range ops {
			method := strings.ToUpper(m)
			concrete := strings.NewReplacer("{job}", "nope", "{id}", "nope").Replace(fill(path, ws)) + "?term=yoga+mat&phrase=towels"
			body, ctype := "{}", "application/json"
			if op.RequestBody != nil && op.RequestBody.Content["multipart/form-data"] != nil {
				body, ctype = "--x--\r\n", "multipart/form-data; boundary=x"
			}
			do := func(c *testkit.Client, url string, header ...string) testkit.Response {
				return c.Do(method, url, body, append([]string{"Content-Type", ctype}, header...)...)
			}
			check(method, path, do(anon, concrete))
			check(method, path, do(owner, concrete+"&x=%FF"))
			if strings.Contains(path, "{ws}") {
				check(method, path, do(other, concrete))
				check(method, path, do(powerless, strings.Replace(concrete, ws, org, 1)))
			}
			if method != "GET" {
				check(method, path, do(other, strings.Replace(concrete, ws, "demo", 1)))
				check(method, path, do(owner, concrete, "Origin", "https://evil.example"))
			}
			if op.RequestBody != nil {
				check(method, path, owner.Do(method, concrete, body, "Content-Type", "text/plain"))
			}
			if strings.Contains(path, "{ds}") {
				check(method, path, do(owner, strings.Replace(concrete, "/datasets/"+ds, "/datasets/abc", 1)))
			}
		}
	}

	for path, ops := range doc.Paths {
		for m, op := range ops {
			key := strings.ToUpper(m) + " " + path
			var documented, answered []string
			for code := range op.Responses {
				documented = append(documented, code)
			}
			for code := range seen[key] {
				answered = append(answered, fmt.Sprint(code))
			}
			slices.Sort(documented)
			slices.Sort(answered)
			if !slices.Equal(documented, answered) {
				t.Errorf("%s: documented %v, answered %v", key, documented, answered)
			}
		}
	}
}

var jsonHeader = map[string][]string{"Content-Type": {"application/json"}}
