package trends_test

import (
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

const orgAPI = "/api/auth/organization/"

// orgCreate makes an organization owned by c and returns its id (its workspace id).
func orgCreate(t *testing.T, c *testkit.Client, name string) string {
	t.Helper()
	res := c.Do("POST", orgAPI+"create", map[string]any{"name": name, "slug": strings.ToLower(name)})
	if res.Status != 200 {
		t.Fatalf("create %s: %d %s", name, res.Status, res.Body)
	}
	return res.JSON(t)["id"].(string)
}

// orgJoin invites email with role into org (by owner) and accepts as who.
func orgJoin(t *testing.T, owner, who *testkit.Client, org, email, role string) {
	t.Helper()
	res := owner.Do("POST", orgAPI+"invite-member", map[string]any{"email": email, "role": role, "organizationId": org})
	if res.Status != 200 {
		t.Fatalf("invite %s: %d %s", email, res.Status, res.Body)
	}
	if res := who.Do("POST", orgAPI+"accept-invitation", map[string]any{"invitationId": res.JSON(t)["id"]}); res.Status != 200 {
		t.Fatalf("accept %s: %d %s", email, res.Status, res.Body)
	}
}

// workspaceRoute is one route of the OpenAPI document that names a workspace.
type workspaceRoute struct{ method, path string }

// workspaceRoutes reads every route with {ws} from the API's own description, so a route added
// later is checked here without editing this test.
func workspaceRoutes(t *testing.T, app *testkit.App) []workspaceRoute {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(app.Client(t).Do("GET", "/api/openapi.json", nil).Body, &doc); err != nil {
		t.Fatal(err)
	}
	var out []workspaceRoute
	for p, methods := range doc.Paths {
		if !strings.Contains(p, "{ws}") {
			continue
		}
		for m := range methods {
			out = append(out, workspaceRoute{strings.ToUpper(m), p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].method < out[j].path+out[j].method })
	if len(out) < 15 {
		t.Fatalf("only %d workspace routes in the OpenAPI document", len(out))
	}
	return out
}

// fill puts real ids into a route's path and its required query parameters.
func fill(r workspaceRoute, ws, ds, job, item, team string) string {
	p := strings.NewReplacer("{ws}", ws, "{ds}", ds, "{asin}", "B0DJOYKVJ9", "{brand}", url.PathEscape("Juniper & Jade"),
		"{start}", "2026-04-05", "{job}", job, "{id}", item).Replace(r.path)
	switch {
	case strings.HasSuffix(p, "/history"):
		p += "?term=paper+towels"
	case strings.HasSuffix(p, "/root-words"):
		p += "?phrase=paper"
	case strings.HasSuffix(p, "/team-members"):
		p += "?team=" + team
	}
	return p
}

func isWrite(method string) bool { return method != "GET" }

// An organization is a workspace its members share as their roles allow: members read, admins
// and owners import and delete, a custom role does what it grants; a member of organization A
// reaches nothing of organization B. Every workspace route of the API is tried.
func TestOrganizationWorkspaceAccess(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		owner := app.SignUp(t, "owner@example.com", "password123")
		admin := app.SignUp(t, "admin@example.com", "password123")
		member := app.SignUp(t, "member@example.com", "password123")
		importer := app.SignUp(t, "importer@example.com", "password123")
		outsider := app.SignUp(t, "outsider@example.com", "password123")
		a := orgCreate(t, owner, "Acme")
		b := orgCreate(t, outsider, "Bolt")
		if res := owner.Do("POST", orgAPI+"create-role", map[string]any{"organizationId": a, "role": "importer", "permission": map[string][]string{"dataset": {"read", "import"}, "watchlist": {"read"}}}); res.Status != 200 {
			t.Fatalf("create-role: %d %s", res.Status, res.Body)
		}
		orgJoin(t, owner, admin, a, "admin@example.com", "admin")
		orgJoin(t, owner, member, a, "member@example.com", "member")
		orgJoin(t, owner, importer, a, "importer@example.com", "importer")

		// The member's list: personal first, the organization with its grants, the demo last.
		var list []map[string]any
		if err := json.Unmarshal(member.Do("GET", "/api/workspaces", nil).Body, &list); err != nil || len(list) != 3 {
			t.Fatalf("member's workspaces: %s", member.Do("GET", "/api/workspaces", nil).Body)
		}
		if list[0]["kind"] != "personal" || list[1]["id"] != a || list[1]["kind"] != "organization" || list[1]["role"] != "member" || list[2]["id"] != "demo" {
			t.Errorf("member's workspaces: %v", list)
		}
		if got, _ := json.Marshal(list[1]["permissions"]); string(got) != `{"billing":[],"dataset":["read"],"watchlist":["read"]}` {
			t.Errorf("member's permissions: %s", got)
		}

		// The admin imports into the organization's workspace; every member sees the dataset.
		ds := importSeries(t, admin, app, a)
		bds := importSeries(t, outsider, app, b)
		status, up := upload(t, admin, app, a, nil, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
		if status != 202 {
			t.Fatalf("admin upload: %d %v", status, up)
		}
		job := up["jobs"].([]any)[0].(map[string]any)["id"].(string)
		item := admin.Do("POST", "/api/workspaces/"+a+"/watchlist", map[string]string{"kind": "term", "value": "paper towels"})
		if item.Status != 201 {
			t.Fatalf("admin watches: %d %s", item.Status, item.Body)
		}
		itemID := item.JSON(t)["id"].(string)

		teamA, teamB := teamWith(t, owner, a, "Readers", member), teamWith(t, outsider, b, "Bolts")
		routes := workspaceRoutes(t, app)
		for _, r := range routes {
			path := fill(r, a, ds, job, itemID, teamA)
			// Each request is well formed, so only access decides: uploads are multipart forms.
			var header []string
			if r.method == "POST" && strings.HasSuffix(r.path, "/imports") {
				header = []string{"Content-Type", "multipart/form-data; boundary=x"}
			}
			// The outsider (owner of B) and a stranger to both reach nothing of A: 404, as if absent.
			if res := outsider.Do(r.method, path, map[string]string{"kind": "term", "value": "x"}, header...); res.Status != 404 {
				t.Errorf("outsider %s %s: %d %s", r.method, path, res.Status, res.Body)
			}
			// And A's member reaches nothing of B.
			if res := member.Do(r.method, fill(r, b, bds, job, itemID, teamB), map[string]string{"kind": "term", "value": "x"}, header...); res.Status != 404 {
				t.Errorf("member of A on B: %s %s: %d %s", r.method, path, res.Status, res.Body)
			}
			res := member.Do(r.method, path, map[string]string{"kind": "term", "value": "y"}, header...)
			if isWrite(r.method) {
				if res.Status != 403 || res.JSON(t)["code"] != "FORBIDDEN" {
					t.Errorf("member %s %s: %d %s, want 403", r.method, path, res.Status, res.Body)
				}
			} else if res.Status != 200 {
				t.Errorf("member reads %s %s: %d %.200s", r.method, path, res.Status, res.Body)
			}
		}

		// The custom role imports (it was granted dataset:import) but deletes nothing.
		if status, out := upload(t, importer, app, a, nil, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_18.csv"); status != 202 {
			t.Errorf("importer uploads: %d %v", status, out)
		}
		if res := importer.Do("DELETE", "/api/trends/"+a+"/datasets/"+ds+"/periods/2026-04-05", nil); res.Status != 403 {
			t.Errorf("importer deletes: %d %s", res.Status, res.Body)
		}
		if res := importer.Do("POST", "/api/workspaces/"+a+"/watchlist", map[string]string{"kind": "term", "value": "z"}); res.Status != 403 {
			t.Errorf("importer watches: %d %s", res.Status, res.Body)
		}
		// Admins and owners delete.
		if res := admin.Do("DELETE", "/api/workspaces/"+a+"/watchlist/"+itemID, nil); res.Status != 204 {
			t.Errorf("admin unwatches: %d %s", res.Status, res.Body)
		}
		if res := owner.Do("DELETE", "/api/trends/"+a+"/datasets/"+ds+"/periods/2026-04-05", nil); res.Status != 204 {
			t.Errorf("owner deletes a period: %d %s", res.Status, res.Body)
		}
		// Personal workspaces stay private: the owner of A does not see the member's.
		if res := owner.Do("GET", "/api/trends/"+list[0]["id"].(string)+"/datasets", nil); res.Status != 404 {
			t.Errorf("owner reads the member's personal workspace: %d", res.Status)
		}
		// Leaving the organization ends access; deleting it removes its workspace.
		if res := member.Do("POST", orgAPI+"leave", map[string]any{"organizationId": a}); res.Status != 200 {
			t.Fatalf("leave: %d %s", res.Status, res.Body)
		}
		if res := member.Do("GET", "/api/trends/"+a+"/datasets", nil); res.Status != 404 {
			t.Errorf("after leaving: %d", res.Status)
		}
		if res := owner.Do("POST", orgAPI+"delete", map[string]any{"organizationId": a}); res.Status != 200 {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		if res := admin.Do("GET", "/api/trends/"+a+"/datasets", nil); res.Status != 404 {
			t.Errorf("after deletion: %d", res.Status)
		}
		var n int
		if err := st.DB().QueryRow(st.Rebind(`select count(*) from "workspace" where "id" = ?`), a).Scan(&n); err != nil || n != 0 {
			t.Errorf("workspace row after deletion: %d %v", n, err)
		}
		if left, err := app.Warehouse.Datasets(context.Background(), a); err != nil || len(left) != 0 {
			t.Errorf("datasets of the deleted organization: %v %v", left, err)
		}
	})
}

// An organization's watchlist alerts every member: an import into the organization's workspace
// mails its digest to the owner and to a member, and to no one outside it.
func TestOrganizationDigestGoesToMembers(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		owner := app.SignUp(t, "owner@example.com", "password123")
		member := app.SignUp(t, "member@example.com", "password123")
		outsider := app.SignUp(t, "outsider@example.com", "password123")
		for _, who := range []*testkit.Client{owner, member, outsider} {
			if res := who.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": "import", "threshold": 10}); res.Status != 200 {
				t.Fatalf("settings: %d %s", res.Status, res.Body)
			}
		}
		for _, mail := range []string{"owner@example.com", "member@example.com", "outsider@example.com"} {
			app.Inbox.WaitLink(t, mail, "verify-email") // out of the inbox: only digests are left
		}
		org := orgCreate(t, owner, "Digest")
		orgJoin(t, owner, member, org, "member@example.com", "member")
		app.Inbox.Wait(t, "member@example.com") // the invitation
		if res := owner.Do("POST", "/api/workspaces/"+org+"/watchlist", map[string]any{"kind": "term", "value": "yoga mat"}); res.Status != 201 {
			t.Fatalf("watch: %d %s", res.Status, res.Body)
		}
		importSeries(t, owner, app, org)
		for _, who := range []string{"owner@example.com", "member@example.com"} {
			if m := app.Inbox.Wait(t, who).Parse(t); !strings.Contains(m.Text, "yoga mat: rank 148 → 125") {
				t.Errorf("%s's digest:\n%s", who, m.Text)
			}
		}
		if n := app.Inbox.Count("outsider@example.com"); n != 0 {
			t.Errorf("the outsider got %d mails", n)
		}
	})
}
