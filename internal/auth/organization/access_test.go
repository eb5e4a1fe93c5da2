package organization_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// invite sends an invitation and returns its id, taken from the link in the mail.
func invite(t *testing.T, app *testkit.App, from *testkit.Client, orgID, email, role string) string {
	t.Helper()
	status, body := post(t, from, "invite-member", map[string]any{"email": email, "role": role, "organizationId": orgID})
	if status != 200 || body["status"] != "pending" || body["role"] != role {
		t.Fatalf("invite %s: %d %v", email, status, body)
	}
	link := app.Inbox.WaitLink(t, email, "/accept-invitation/")
	id := link[strings.LastIndex(link, "/")+1:]
	if id != body["id"] {
		t.Fatalf("mail link %s does not carry invitation %v", link, body["id"])
	}
	return id
}

func TestInvitationsAndAccess(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		alice := app.SignUp(t, "alice@example.com", "password123")
		_, orgA := post(t, alice, "create", map[string]any{"name": "A", "slug": "org-a"})
		a := orgA["id"].(string)
		bob := app.SignUp(t, "bob@example.com", "password123")
		_, orgB := post(t, bob, "create", map[string]any{"name": "B", "slug": "org-b"})
		b := orgB["id"].(string)
		carol := app.SignUp(t, "carol@example.com", "password123")
		dave := app.SignUp(t, "dave@example.com", "password123")

		carolInv := invite(t, app, alice, a, "carol@example.com", "member")
		daveInv := invite(t, app, alice, a, "Dave@Example.com", "admin")
		status, body := post(t, alice, "invite-member", map[string]any{"email": "carol@example.com", "role": "member", "organizationId": a})
		wantErr(t, "invite twice", status, body, 400, "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION")
		if status, body = post(t, alice, "invite-member", map[string]any{"email": "carol@example.com", "role": "member", "organizationId": a, "resend": true}); status != 200 || body["id"] != carolInv {
			t.Errorf("resend: %d %v", status, body)
		}
		status, body = post(t, alice, "invite-member", map[string]any{"email": "x@example.com", "role": "boss", "organizationId": a})
		wantErr(t, "unknown role", status, body, 400, "ROLE_NOT_FOUND")

		// Only the invited address accepts or reads the invitation.
		status, body = post(t, bob, "accept-invitation", map[string]any{"invitationId": carolInv})
		wantErr(t, "bob accepts carol's invitation", status, body, 403, "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION")
		status, body = get(t, bob, "get-invitation?id="+carolInv)
		wantErr(t, "bob reads carol's invitation", status, body, 403, "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION")
		if status, body = get(t, carol, "get-invitation?id="+carolInv); status != 200 || body["organizationName"] != "A" || body["inviterEmail"] != "alice@example.com" {
			t.Errorf("get-invitation: %d %v", status, body)
		}
		if status, body = post(t, carol, "accept-invitation", map[string]any{"invitationId": carolInv}); status != 200 || body["member"].(map[string]any)["role"] != "member" {
			t.Fatalf("accept: %d %v", status, body)
		}
		if activeOrg(t, carol) != a {
			t.Errorf("accepting did not activate the organization")
		}
		status, body = post(t, carol, "accept-invitation", map[string]any{"invitationId": carolInv})
		wantErr(t, "accept twice", status, body, 400, "INVITATION_NOT_FOUND")
		if status, _ = post(t, dave, "accept-invitation", map[string]any{"invitationId": daveInv}); status != 200 {
			t.Fatalf("dave accepts: %d", status)
		}

		// A member reads but changes nothing only admins and owners may change.
		if status, full := get(t, carol, "get-full-organization"); status != 200 || len(full["members"].([]any)) != 3 || len(full["invitations"].([]any)) != 0 {
			t.Errorf("member's full organization: %d %v", status, full)
		}
		if res := carol.Do("GET", base+"list-members", nil); res.Status != 200 || res.JSON(t)["total"] != float64(3) {
			t.Errorf("member lists members: %d %s", res.Status, res.Body)
		}
		status, body = post(t, carol, "update", map[string]any{"data": map[string]any{"name": "Mine"}})
		wantErr(t, "member updates", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION")
		status, body = post(t, carol, "delete", map[string]any{"organizationId": a})
		wantErr(t, "member deletes", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION")
		status, body = post(t, carol, "invite-member", map[string]any{"email": "x@example.com", "role": "member"})
		wantErr(t, "member invites", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION")
		status, body = post(t, carol, "remove-member", map[string]any{"memberIdOrEmail": "dave@example.com"})
		wantErr(t, "member removes", status, body, 401, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER")
		_, daveMember := get(t, dave, "get-active-member")
		status, body = post(t, carol, "update-member-role", map[string]any{"memberId": daveMember["id"], "role": "member"})
		wantErr(t, "member changes a role", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER")
		status, body = get(t, carol, "list-invitations")
		wantErr(t, "member lists invitations", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS")
		for perm, want := range map[string]bool{"dataset:read": true, "dataset:delete": false, "organization:update": false, "ac:read": true} {
			res, act, _ := strings.Cut(perm, ":")
			if status, body = post(t, carol, "has-permission", map[string]any{"permissions": map[string]any{res: []string{act}}}); status != 200 || body["success"] != want {
				t.Errorf("member has %s: %d %v", perm, status, body)
			}
		}

		// An admin changes the organization and members but cannot delete it or touch owners.
		if status, body = post(t, dave, "update", map[string]any{"data": map[string]any{"name": "A2"}}); status != 200 || body["name"] != "A2" {
			t.Errorf("admin updates: %d %v", status, body)
		}
		status, body = post(t, dave, "delete", map[string]any{"organizationId": a})
		wantErr(t, "admin deletes", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION")
		status, body = post(t, dave, "invite-member", map[string]any{"email": "x@example.com", "role": "owner"})
		wantErr(t, "admin invites an owner", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE")
		_, aliceMember := get(t, alice, "get-active-member")
		status, body = post(t, dave, "update-member-role", map[string]any{"memberId": aliceMember["id"], "role": "member"})
		wantErr(t, "admin demotes the owner", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER")
		_, carolMember := get(t, carol, "get-active-member")
		if status, body = post(t, dave, "update-member-role", map[string]any{"memberId": carolMember["id"], "role": []string{"member", "admin"}}); status != 200 || body["role"] != "member,admin" {
			t.Errorf("admin promotes: %d %v", status, body)
		}
		// Several roles: any one granting is enough.
		if status, body = post(t, carol, "has-permission", map[string]any{"permissions": map[string]any{"dataset": []string{"delete"}}}); body["success"] != true {
			t.Errorf("member,admin may delete datasets: %d %v", status, body)
		}

		// Bob, owner of B, can read or change nothing of A.
		status, body = get(t, bob, "get-full-organization?organizationId="+a)
		wantErr(t, "outsider reads A", status, body, 403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION")
		status, body = post(t, bob, "set-active", map[string]any{"organizationId": a})
		wantErr(t, "outsider activates A", status, body, 403, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION")
		status, body = get(t, bob, "list-members?organizationId="+a)
		wantErr(t, "outsider lists A's members", status, body, 403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION")
		status, body = get(t, bob, "get-active-member-role?organizationId="+a)
		wantErr(t, "outsider reads a role in A", status, body, 403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION")
		status, body = post(t, bob, "update", map[string]any{"organizationId": a, "data": map[string]any{"name": "Taken"}})
		wantErr(t, "outsider updates A", status, body, 400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION")
		status, body = post(t, bob, "delete", map[string]any{"organizationId": a})
		wantErr(t, "outsider deletes A", status, body, 400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION")
		status, body = post(t, bob, "invite-member", map[string]any{"organizationId": a, "email": "x@example.com", "role": "member"})
		wantErr(t, "outsider invites to A", status, body, 400, "MEMBER_NOT_FOUND")
		status, body = post(t, bob, "remove-member", map[string]any{"organizationId": a, "memberIdOrEmail": "carol@example.com"})
		wantErr(t, "outsider removes from A", status, body, 400, "MEMBER_NOT_FOUND")
		// Bob's own organization does not reach A's members either.
		status, body = post(t, bob, "remove-member", map[string]any{"organizationId": b, "memberIdOrEmail": carolMember["id"]})
		wantErr(t, "remove A's member through B", status, body, 400, "MEMBER_NOT_FOUND")
		status, body = post(t, bob, "update-member-role", map[string]any{"organizationId": b, "memberId": carolMember["id"], "role": "owner"})
		wantErr(t, "change A's member through B", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER")
		status, body = get(t, bob, "list-invitations?organizationId="+a)
		wantErr(t, "outsider lists A's invitations", status, body, 403, "FORBIDDEN")
		status, body = post(t, bob, "has-permission", map[string]any{"organizationId": a, "permissions": map[string]any{"dataset": []string{"read"}}})
		wantErr(t, "outsider's permission in A", status, body, 400, "MEMBER_NOT_FOUND")
		if res := bob.Do("GET", base+"list", nil); len(decodeList(t, res.Body)) != 1 {
			t.Errorf("bob lists others' organizations: %s", res.Body)
		}

		// Invitations: cancel, reject, expiry after 48 hours.
		eveInv := invite(t, app, alice, a, "eve@example.com", "member")
		status, body = post(t, bob, "cancel-invitation", map[string]any{"invitationId": eveInv})
		wantErr(t, "outsider cancels", status, body, 400, "MEMBER_NOT_FOUND")
		if status, body = post(t, alice, "cancel-invitation", map[string]any{"invitationId": eveInv}); status != 200 || body["status"] != "canceled" {
			t.Errorf("cancel: %d %v", status, body)
		}
		eve := app.SignUp(t, "eve@example.com", "password123")
		status, body = post(t, eve, "accept-invitation", map[string]any{"invitationId": eveInv})
		wantErr(t, "accept canceled", status, body, 400, "INVITATION_NOT_FOUND")
		eveInv = invite(t, app, alice, a, "eve@example.com", "member")
		if status, body = post(t, eve, "reject-invitation", map[string]any{"invitationId": eveInv}); status != 200 || body["invitation"].(map[string]any)["status"] != "rejected" {
			t.Errorf("reject: %d %v", status, body)
		}
		eveInv = invite(t, app, alice, a, "eve@example.com", "member")
		if res := alice.Do("GET", base+"list-invitations", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 5 {
			t.Errorf("owner lists invitations: %d %s", res.Status, res.Body)
		}
		now := time.Now()
		app.Auth.SetClock(func() time.Time { return now.Add(49 * time.Hour) })
		status, body = post(t, eve, "accept-invitation", map[string]any{"invitationId": eveInv})
		wantErr(t, "accept expired", status, body, 400, "INVITATION_NOT_FOUND")
		app.Auth.SetClock(time.Now)

		// Removing by email and leaving.
		if status, body = post(t, alice, "remove-member", map[string]any{"memberIdOrEmail": "CAROL@example.com"}); status != 200 {
			t.Errorf("remove by email: %d %v", status, body)
		}
		if res := carol.Do("GET", base+"list", nil); len(decodeList(t, res.Body)) != 0 || activeOrg(t, carol) != nil {
			t.Errorf("removed member still sees A: %s", res.Body)
		}
		if status, body = post(t, dave, "leave", map[string]any{"organizationId": a}); status != 200 {
			t.Errorf("admin leaves: %d %v", status, body)
		}
		if res := alice.Do("GET", base+"list-members", nil); res.JSON(t)["total"] != float64(1) {
			t.Errorf("members after leaving: %s", res.Body)
		}
	})
}
