package organization_test

import (
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestTeams(t *testing.T) {
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
		carolID := carol.Do("GET", "/api/auth/get-session", nil).JSON(t)["user"].(map[string]any)["id"]

		status, body := post(t, alice, "create-team", map[string]any{"name": ""})
		if status != 400 {
			t.Errorf("empty team name: %d %v", status, body)
		}
		status, team := post(t, alice, "create-team", map[string]any{"name": "Sales"})
		if status != 200 || team["name"] != "Sales" || team["organizationId"] != a {
			t.Fatalf("create-team: %d %v", status, team)
		}
		teamID := team["id"].(string)
		status, body = post(t, carol, "create-team", map[string]any{"name": "Mine"})
		wantErr(t, "member creates a team", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION")
		status, body = post(t, carol, "update-team", map[string]any{"teamId": teamID, "data": map[string]any{"name": "X"}})
		wantErr(t, "member renames a team", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM")
		if status, body = post(t, alice, "update-team", map[string]any{"teamId": teamID, "data": map[string]any{"name": "Sales EU"}}); status != 200 || body["name"] != "Sales EU" {
			t.Errorf("update-team: %d %v", status, body)
		}
		// The default team (named after the organization, made with it) and Sales.
		if res := carol.Do("GET", base+"list-teams", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 2 {
			t.Errorf("member lists teams: %d %s", res.Status, res.Body)
		}
		status, body = get(t, bob, "list-teams?organizationId="+a)
		wantErr(t, "outsider lists teams", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION")
		status, body = post(t, bob, "add-team-member", map[string]any{"teamId": teamID, "userId": carolID, "organizationId": a})
		wantErr(t, "outsider adds to A's team", status, body, 400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION")
		status, body = post(t, carol, "add-team-member", map[string]any{"teamId": teamID, "userId": carolID})
		wantErr(t, "member adds to a team", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER")
		status, body = post(t, carol, "set-active-team", map[string]any{"teamId": teamID})
		wantErr(t, "activate a team one is not in", status, body, 403, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM")
		if status, body = post(t, alice, "add-team-member", map[string]any{"teamId": teamID, "userId": carolID}); status != 200 || body["userId"] != carolID {
			t.Fatalf("add-team-member: %d %v", status, body)
		}
		if status, body = post(t, carol, "set-active-team", map[string]any{"teamId": teamID}); status != 200 || body["id"] != teamID {
			t.Errorf("set-active-team: %d %v", status, body)
		}
		s := carol.Do("GET", "/api/auth/get-session?disableCookieCache=true", nil).JSON(t)["session"].(map[string]any)
		if s["activeTeamId"] != teamID {
			t.Errorf("session active team: %v", s)
		}
		if res := carol.Do("GET", base+"list-team-members", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 1 {
			t.Errorf("list-team-members: %d %s", res.Status, res.Body)
		}
		if res := carol.Do("GET", base+"list-user-teams", nil); res.Status != 200 || len(decodeList(t, res.Body)) != 1 {
			t.Errorf("list-user-teams: %d %s", res.Status, res.Body)
		}
		status, body = get(t, bob, "list-team-members?teamId="+teamID)
		wantErr(t, "outsider lists team members", status, body, 400, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM")
		status, body = post(t, carol, "remove-team", map[string]any{"teamId": teamID})
		wantErr(t, "member removes a team", status, body, 403, "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION")
		if status, body = post(t, alice, "remove-team-member", map[string]any{"teamId": teamID, "userId": carolID}); status != 200 {
			t.Errorf("remove-team-member: %d %v", status, body)
		}
		if res := carol.Do("GET", base+"list-user-teams", nil); len(decodeList(t, res.Body)) != 0 {
			t.Errorf("teams after removal: %s", res.Body)
		}
		if status, body = post(t, alice, "remove-team", map[string]any{"teamId": teamID}); status != 200 || body["message"] != "Team removed successfully." {
			t.Errorf("remove-team: %d %v", status, body)
		}
		if res := alice.Do("GET", base+"list-teams", nil); len(decodeList(t, res.Body)) != 1 || decodeList(t, res.Body)[0]["name"] != "A" {
			t.Errorf("teams after remove: %s", res.Body)
		}
	})
}
