package organization_test

import (
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

const base = "/api/auth/organization/"

func post(t *testing.T, c *testkit.Client, path string, body any) (int, map[string]any) {
	t.Helper()
	res := c.Do("POST", base+path, body)
	if string(res.Body) == "null\n" || string(res.Body) == "null" {
		return res.Status, nil
	}
	return res.Status, res.JSON(t)
}

func get(t *testing.T, c *testkit.Client, path string) (int, map[string]any) {
	t.Helper()
	res := c.Do("GET", base+path, nil)
	if string(res.Body) == "null\n" || string(res.Body) == "null" || (len(res.Body) > 0 && res.Body[0] == '[') {
		return res.Status, nil
	}
	return res.Status, res.JSON(t)
}

func wantErr(t *testing.T, what string, status int, body map[string]any, wantStatus int, code string) {
	t.Helper()
	if status != wantStatus || body["code"] != code {
		t.Errorf("%s: %d %v, want %d %s", what, status, body, wantStatus, code)
	}
}

func activeOrg(t *testing.T, c *testkit.Client) any {
	t.Helper()
	s := c.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil).JSON(t)["session"].(map[string]any)
	return s["activeOrganizationId"]
}

func TestOrganizationLifecycle(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		if res := app.Client(t).Do("POST", base+"create", map[string]any{"name": "A", "slug": "a"}); res.Status != 401 {
			t.Errorf("create without a session: %d", res.Status)
		}
		alice := app.SignUp(t, "alice@example.com", "password123")
		if activeOrg(t, alice) != nil {
			t.Errorf("active organization before any: %v", activeOrg(t, alice))
		}
		status, org := post(t, alice, "create", map[string]any{"name": "Acme", "slug": "acme", "metadata": map[string]any{"plan": "x"}})
		if status != 200 || org["slug"] != "acme" || org["metadata"].(map[string]any)["plan"] != "x" {
			t.Fatalf("create: %d %v", status, org)
		}
		members := org["members"].([]any)
		if len(members) != 1 || members[0].(map[string]any)["role"] != "owner" {
			t.Errorf("creator member: %v", members)
		}
		orgID := org["id"].(string)
		if activeOrg(t, alice) != orgID {
			t.Errorf("create did not set the active organization: %v", activeOrg(t, alice))
		}
		status, body := post(t, alice, "create", map[string]any{"name": "Other", "slug": "acme"})
		wantErr(t, "duplicate slug", status, body, 400, "ORGANIZATION_ALREADY_EXISTS")
		status, body = post(t, alice, "create", map[string]any{"name": "", "slug": "x"})
		if status != 400 {
			t.Errorf("empty name: %d %v", status, body)
		}
		status, body = post(t, alice, "check-slug", map[string]any{"slug": "acme"})
		wantErr(t, "check taken slug", status, body, 400, "ORGANIZATION_SLUG_ALREADY_TAKEN")
		if status, body = post(t, alice, "check-slug", map[string]any{"slug": "free"}); status != 200 || body["status"] != true {
			t.Errorf("check free slug: %d %v", status, body)
		}
		status, body = post(t, alice, "update", map[string]any{"data": map[string]any{"name": "Acme Inc", "slug": "acme-inc"}})
		if status != 200 || body["name"] != "Acme Inc" || body["slug"] != "acme-inc" {
			t.Errorf("update active: %d %v", status, body)
		}
		status, full := get(t, alice, "get-full-organization")
		if status != 200 || full["id"] != orgID || len(full["members"].([]any)) != 1 {
			t.Errorf("get-full: %d %v", status, full)
		}
		member := full["members"].([]any)[0].(map[string]any)
		if member["user"].(map[string]any)["email"] != "alice@example.com" {
			t.Errorf("member user: %v", member)
		}
		if res := alice.Do("GET", base+"list", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 1 {
			t.Errorf("list: %d %s", res.Status, res.Body)
		}
		if status, body = get(t, alice, "get-active-member-role"); status != 200 || body["role"] != "owner" {
			t.Errorf("active member role: %d %v", status, body)
		}
		if status, body = get(t, alice, "get-active-member"); status != 200 || body["role"] != "owner" || body["userId"] == nil {
			t.Errorf("active member: %d %v", status, body)
		}
		// Unset, then set by slug.
		if status, body = post(t, alice, "set-active", map[string]any{"organizationId": nil}); status != 200 || body != nil || activeOrg(t, alice) != nil {
			t.Errorf("unset active: %d %v %v", status, body, activeOrg(t, alice))
		}
		status, body = get(t, alice, "get-active-member")
		wantErr(t, "active member without an active organization", status, body, 400, "NO_ACTIVE_ORGANIZATION")
		if status, body = post(t, alice, "set-active", map[string]any{"organizationSlug": "acme-inc"}); status != 200 || body["id"] != orgID || activeOrg(t, alice) != orgID {
			t.Errorf("set active by slug: %d %v", status, body)
		}
		// The session-data cookie is rewritten too, so a cached get-session agrees.
		if s := alice.Do("GET", "/api/auth/get-session", nil).JSON(t)["session"].(map[string]any); s["activeOrganizationId"] != orgID {
			t.Errorf("cached session after set-active: %v", s)
		}
		status, body = post(t, alice, "set-active", map[string]any{"organizationSlug": "nope"})
		wantErr(t, "set active unknown slug", status, body, 400, "ORGANIZATION_NOT_FOUND")
		// The last owner cannot leave or demote themselves.
		status, body = post(t, alice, "leave", map[string]any{"organizationId": orgID})
		wantErr(t, "last owner leaves", status, body, 400, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER")
		status, body = post(t, alice, "update-member-role", map[string]any{"memberId": member["id"], "role": "admin"})
		wantErr(t, "last owner demoted", status, body, 400, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER")
		status, body = post(t, alice, "remove-member", map[string]any{"memberIdOrEmail": "alice@example.com"})
		wantErr(t, "last owner removed", status, body, 400, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER")
		if status, body = post(t, alice, "has-permission", map[string]any{"permissions": map[string]any{"organization": []string{"delete"}}}); status != 200 || body["success"] != true {
			t.Errorf("owner may delete: %d %v", status, body)
		}
		if status, body = post(t, alice, "delete", map[string]any{"organizationId": orgID}); status != 200 || body["id"] != orgID {
			t.Errorf("delete: %d %v", status, body)
		}
		if activeOrg(t, alice) != nil {
			t.Errorf("deleted organization still active")
		}
		status, body = get(t, alice, "get-full-organization?organizationId="+orgID)
		wantErr(t, "get deleted", status, body, 400, "ORGANIZATION_NOT_FOUND")
	})
}
