package organization_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// A PostgreSQL database where Better Auth 1.7.25's organization plugin wrote organizations,
// members, an accepted invitation, teams and a custom role is adopted as is: the same users sign
// in on our server, see their organization, and its custom role decides what they may do in the
// organization's workspace (whose workspace row does not exist yet).
func TestAdoptsBetterAuthOrganizations(t *testing.T) {
	ba, url := startReference(t)
	o := "/organization/"
	for _, r := range []req{
		{name: "owner", client: "owner", method: "POST", path: "/sign-up/email", body: map[string]any{"email": "owner@example.com", "password": "password123", "name": "Owner"}},
		{name: "guest", client: "guest", method: "POST", path: "/sign-up/email", body: map[string]any{"email": "guest@example.com", "password": "password123", "name": "Guest"}, save: map[string]string{"guestId": "user.id"}},
		{name: "create", client: "owner", method: "POST", path: o + "create", body: map[string]any{"name": "Adopted", "slug": "adopted"}, save: map[string]string{"org": "id"}},
		{name: "role", client: "owner", method: "POST", path: o + "create-role", body: map[string]any{"role": "importer", "permission": map[string]any{"dataset": []string{"read", "import"}}, "organizationId": "{org}"}},
		{name: "invite", client: "owner", method: "POST", path: o + "invite-member", body: map[string]any{"email": "guest@example.com", "role": "importer", "organizationId": "{org}"}, save: map[string]string{"inv": "id"}},
		{name: "accept", client: "guest", method: "POST", path: o + "accept-invitation", body: map[string]any{"invitationId": "{inv}"}},
		{name: "team", client: "owner", method: "POST", path: o + "create-team", body: map[string]any{"name": "Research", "organizationId": "{org}"}, save: map[string]string{"team": "id"}},
		{name: "team member", client: "owner", method: "POST", path: o + "add-team-member", body: map[string]any{"teamId": "{team}", "userId": "{guestId}", "organizationId": "{org}"}},
	} {
		if a := ba.do(t, r); a.status != 200 {
			t.Fatalf("Better Auth %s: %d %s", r.name, a.status, a.raw)
		}
	}
	org := ba.vars["org"]

	st, err := store.Open(context.Background(), url, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	app := testkit.Server(t, st, nil)
	signIn := func(email string) *testkit.Client {
		c := app.Client(t)
		if res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": email, "password": "password123"}); res.Status != 200 {
			t.Fatalf("sign in %s on the adopted database: %d %s", email, res.Status, res.Body)
		}
		return c
	}
	owner, guest := signIn("owner@example.com"), signIn("guest@example.com")

	if res := owner.Do("GET", base+"list", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 1 || decodeList(t, res.Body)[0]["slug"] != "adopted" {
		t.Errorf("list: %d %s", res.Status, res.Body)
	}
	if status, full := get(t, owner, "get-full-organization?organizationId="+org); status != 200 || len(full["members"].([]any)) != 2 || len(full["teams"].([]any)) != 2 {
		t.Errorf("get-full-organization: %d %v", status, full)
	}
	if status, body := post(t, guest, "has-permission", map[string]any{"organizationId": org, "permissions": map[string]any{"dataset": []string{"import"}}}); status != 200 || body["success"] != true {
		t.Errorf("has-permission by the adopted custom role: %d %v", status, body)
	}
	if res := guest.Do("GET", base+"list-user-teams", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 1 {
		t.Errorf("list-user-teams: %d %s", res.Status, res.Body)
	}
	// The organization is the guest's workspace; the custom role imports but deletes nothing.
	var ws []map[string]any
	if err := json.Unmarshal(guest.Do("GET", "/api/workspaces", nil).Body, &ws); err != nil || len(ws) != 3 || ws[1]["id"] != org {
		t.Fatalf("workspaces: %v %v", ws, err)
	}
	if got, _ := json.Marshal(ws[1]["permissions"]); string(got) != `{"billing":[],"dataset":["read","import"],"watchlist":[]}` {
		t.Errorf("adopted role's permissions: %s", got)
	}
	if res := guest.Do("GET", "/api/trends/"+org+"/datasets", nil); res.Status != 200 {
		t.Errorf("guest reads the workspace: %d %s", res.Status, res.Body)
	}
	if res := guest.Do("POST", "/api/workspaces/"+org+"/watchlist", map[string]any{"kind": "term", "value": "x"}); res.Status != 403 {
		t.Errorf("guest writes the watchlist without watchlist:write: %d %s", res.Status, res.Body)
	}
	if res := owner.Do("POST", "/api/workspaces/"+org+"/watchlist", map[string]any{"kind": "term", "value": "yoga mat"}); res.Status != 201 {
		t.Errorf("owner watches in the adopted organization (its workspace row made on this first write): %d %s", res.Status, res.Body)
	}
}
