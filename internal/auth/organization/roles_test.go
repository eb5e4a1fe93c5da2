package organization_test

import (
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestDynamicRoles(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		alice := app.SignUp(t, "alice@example.com", "password123")
		_, orgA := post(t, alice, "create", map[string]any{"name": "A", "slug": "org-a"})
		a := orgA["id"].(string)
		bob := app.SignUp(t, "bob@example.com", "password123")
		post(t, bob, "create", map[string]any{"name": "B", "slug": "org-b"})
		carol := app.SignUp(t, "carol@example.com", "password123")
		inv := invite(t, app, alice, a, "carol@example.com", "member")
		if status, _ := post(t, carol, "accept-invitation", map[string]any{"invitationId": inv}); status != 200 {
			t.Fatalf("accept: %d", status)
		}

		importer := map[string]any{"dataset": []string{"read", "import"}}
		status, body := post(t, alice, "create-role", map[string]any{"role": "importer", "permission": importer})
		if status != 200 || body["success"] != true || body["roleData"].(map[string]any)["role"] != "importer" {
			t.Fatalf("create-role: %d %v", status, body)
		}
		status, body = post(t, alice, "create-role", map[string]any{"role": "importer", "permission": importer})
		wantErr(t, "duplicate role", status, body, 400, "ROLE_NAME_IS_ALREADY_TAKEN")
		status, body = post(t, alice, "create-role", map[string]any{"role": "admin", "permission": importer})
		wantErr(t, "built-in role name", status, body, 400, "ROLE_NAME_IS_ALREADY_TAKEN")
		status, body = post(t, alice, "create-role", map[string]any{"role": "x", "permission": map[string]any{"rocket": []string{"launch"}}})
		wantErr(t, "unknown resource", status, body, 400, "INVALID_RESOURCE")
		status, body = post(t, carol, "create-role", map[string]any{"role": "x", "permission": importer})
		wantErr(t, "member creates a role", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE")
		if res := carol.Do("GET", base+"list-roles", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 1 {
			t.Errorf("member lists roles (ac:read): %d %s", res.Status, res.Body)
		}
		status, body = get(t, bob, "list-roles?organizationId="+a)
		wantErr(t, "outsider lists roles", status, body, 403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION")
		status, body = get(t, bob, "get-role?roleName=importer&organizationId="+a)
		wantErr(t, "outsider reads a role", status, body, 403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION")
		if status, body = get(t, carol, "get-role?roleName=importer"); status != 200 || body["role"] != "importer" {
			t.Errorf("get-role: %d %v", status, body)
		}

		// The custom role grants what it names, and is assignable.
		_, carolMember := get(t, carol, "get-active-member")
		if status, body = post(t, alice, "update-member-role", map[string]any{"memberId": carolMember["id"], "role": "importer"}); status != 200 {
			t.Fatalf("assign custom role: %d %v", status, body)
		}
		if _, body = post(t, carol, "has-permission", map[string]any{"permissions": map[string]any{"dataset": []string{"import"}}}); body["success"] != true {
			t.Errorf("importer may import: %v", body)
		}
		if _, body = post(t, carol, "has-permission", map[string]any{"permissions": map[string]any{"dataset": []string{"delete"}}}); body["success"] != false {
			t.Errorf("importer may not delete: %v", body)
		}
		status, body = post(t, alice, "delete-role", map[string]any{"roleName": "importer"})
		wantErr(t, "delete an assigned role", status, body, 400, "ROLE_IS_ASSIGNED_TO_MEMBERS")
		status, body = post(t, alice, "delete-role", map[string]any{"roleName": "owner"})
		wantErr(t, "delete a built-in role", status, body, 400, "CANNOT_DELETE_A_PRE_DEFINED_ROLE")
		if status, body = post(t, alice, "update-role", map[string]any{"roleName": "importer", "data": map[string]any{"permission": map[string]any{"dataset": []string{"read", "import", "delete"}}}}); status != 200 {
			t.Errorf("update-role: %d %v", status, body)
		}
		if _, body = post(t, carol, "has-permission", map[string]any{"permissions": map[string]any{"dataset": []string{"delete"}}}); body["success"] != true {
			t.Errorf("updated role grants delete: %v", body)
		}
		status, body = post(t, bob, "update-role", map[string]any{"organizationId": a, "roleName": "importer", "data": map[string]any{"roleName": "mine"}})
		wantErr(t, "outsider updates a role", status, body, 403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION")
		status, body = post(t, bob, "delete-role", map[string]any{"organizationId": a, "roleName": "importer"})
		wantErr(t, "outsider deletes a role", status, body, 403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION")
		post(t, alice, "update-member-role", map[string]any{"memberId": carolMember["id"], "role": "member"})
		if status, body = post(t, alice, "delete-role", map[string]any{"roleName": "importer"}); status != 200 || body["success"] != true {
			t.Errorf("delete-role: %d %v", status, body)
		}
		status, body = get(t, alice, "get-role?roleName=importer")
		wantErr(t, "deleted role", status, body, 400, "ROLE_NOT_FOUND")
	})
}
