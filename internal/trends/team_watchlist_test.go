package trends_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// teamWith makes a team in org (by owner) holding the given users and returns its id.
func teamWith(t *testing.T, owner *testkit.Client, org, name string, members ...*testkit.Client) string {
	t.Helper()
	res := owner.Do("POST", orgAPI+"create-team", map[string]any{"name": name, "organizationId": org})
	if res.Status != 200 {
		t.Fatalf("create-team: %d %s", res.Status, res.Body)
	}
	team := res.JSON(t)["id"].(string)
	for _, m := range members {
		if res := owner.Do("POST", orgAPI+"add-team-member", map[string]any{"teamId": team, "userId": userID(t, m), "organizationId": org}); res.Status != 200 {
			t.Fatalf("add-team-member: %d %s", res.Status, res.Body)
		}
	}
	return team
}

// A team's own watchlist: its members (whatever their role) and the organization's owners and
// admins read and change it; another member of the organization is refused with 403, a
// stranger gets 404; it is apart from the organization's list and goes with its team.
func TestTeamWatchlistAccess(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		owner := app.SignUp(t, "owner@example.com", "password123")
		admin := app.SignUp(t, "admin@example.com", "password123")
		teammate := app.SignUp(t, "teammate@example.com", "password123")
		member := app.SignUp(t, "member@example.com", "password123")
		outsider := app.SignUp(t, "outsider@example.com", "password123")
		org := orgCreate(t, owner, "Acme")
		orgCreate(t, outsider, "Bolt")
		orgJoin(t, owner, admin, org, "admin@example.com", "admin")
		orgJoin(t, owner, teammate, org, "teammate@example.com", "member")
		orgJoin(t, owner, member, org, "member@example.com", "member")
		team := teamWith(t, owner, org, "Growth", teammate)
		list := "/api/workspaces/" + org + "/watchlist"
		q := "?team=" + team

		// A teammate with the member role (no watchlist:write) writes the team's list.
		res := teammate.Do("POST", list+q, map[string]any{"kind": "term", "value": "yoga mat"})
		if res.Status != 201 {
			t.Fatalf("teammate watch: %d %s", res.Status, res.Body)
		}
		item := res.JSON(t)["id"].(string)
		if res := teammate.Do("POST", list, map[string]any{"kind": "term", "value": "yoga mat"}); res.Status != 403 {
			t.Errorf("teammate on the organization's list: %d %s", res.Status, res.Body)
		}
		for name, c := range map[string]*testkit.Client{"teammate": teammate, "admin": admin, "owner": owner} {
			if res := c.Do("GET", list+q, nil); res.Status != 200 || !strings.Contains(string(res.Body), `"yoga mat"`) {
				t.Errorf("%s reads the team's list: %d %s", name, res.Status, res.Body)
			}
		}
		if res := owner.Do("GET", list, nil); res.Status != 200 || strings.Contains(string(res.Body), "yoga mat") {
			t.Errorf("the organization's list holds the team's item: %d %s", res.Status, res.Body)
		}

		// Another member of the organization: 403 on every route; a stranger: 404.
		for _, r := range []struct{ method, path string }{{"GET", list + q}, {"POST", list + q}, {"DELETE", list + "/" + item + q}} {
			if res := member.Do(r.method, r.path, map[string]any{"kind": "term", "value": "x"}); res.Status != 403 {
				t.Errorf("member %s: %d %s", r.method, res.Status, res.Body)
			}
			if res := outsider.Do(r.method, r.path, map[string]any{"kind": "term", "value": "x"}); res.Status != 404 {
				t.Errorf("outsider %s: %d %s", r.method, res.Status, res.Body)
			}
		}
		if res := owner.Do("GET", list+"?team=nope", nil); res.Status != 404 {
			t.Errorf("unknown team: %d %s", res.Status, res.Body)
		}
		if res := owner.Do("GET", "/api/workspaces/demo/watchlist"+q, nil); res.Status != 400 {
			t.Errorf("team on the demo: %d %s", res.Status, res.Body)
		}

		// Who is in the team: the teammate; told to the teammate and to the owner and admin who
		// manage the team (Better Auth's list-team-members refuses those two), not to others.
		members := "/api/workspaces/" + org + "/team-members" + q
		for name, c := range map[string]*testkit.Client{"teammate": teammate, "admin": admin, "owner": owner} {
			res := c.Do("GET", members, nil)
			got, _ := res.JSON(t)["members"].([]any)
			if res.Status != 200 || len(got) != 1 || got[0].(map[string]any)["email"] != "teammate@example.com" {
				t.Errorf("%s lists the team: %d %s", name, res.Status, res.Body)
			}
		}
		if res := admin.Do("GET", "/api/auth/organization/list-team-members?teamId="+team, nil); res.Status != 400 {
			t.Errorf("Better Auth's list-team-members for an admin outside the team: %d %s", res.Status, res.Body)
		}
		if res := member.Do("GET", members, nil); res.Status != 403 {
			t.Errorf("member lists the team: %d %s", res.Status, res.Body)
		}
		if res := outsider.Do("GET", members, nil); res.Status != 404 {
			t.Errorf("outsider lists the team: %d %s", res.Status, res.Body)
		}

		// The admin (not in the team) changes it too.
		if res := admin.Do("POST", list+q, map[string]any{"kind": "brand", "value": "Juniper & Jade"}); res.Status != 201 {
			t.Errorf("admin watch: %d %s", res.Status, res.Body)
		}
		if res := admin.Do("DELETE", list+"/"+item+q, nil); res.Status != 204 {
			t.Errorf("admin remove: %d %s", res.Status, res.Body)
		}

		// Removing the team removes its list; deleting the organization removes its teams' lists.
		other := teamWith(t, owner, org, "Brand", teammate)
		if res := teammate.Do("POST", list+"?team="+other, map[string]any{"kind": "term", "value": "desk lamp"}); res.Status != 201 {
			t.Fatalf("second team watch: %d %s", res.Status, res.Body)
		}
		if res := owner.Do("POST", orgAPI+"remove-team", map[string]any{"teamId": team, "organizationId": org}); res.Status != 200 {
			t.Fatalf("remove-team: %d %s", res.Status, res.Body)
		}
		if n, err := st.Watchlist(t.Context(), store.TeamListID(team)); err != nil || len(n) != 0 {
			t.Errorf("the removed team's items: %v %v", n, err)
		}
		if res := owner.Do("GET", list+q, nil); res.Status != 404 {
			t.Errorf("removed team's list: %d %s", res.Status, res.Body)
		}
		if res := owner.Do("POST", orgAPI+"delete", map[string]any{"organizationId": org}); res.Status != 200 {
			t.Fatalf("delete organization: %d %s", res.Status, res.Body)
		}
		if n, err := st.Watchlist(t.Context(), store.TeamListID(other)); err != nil || len(n) != 0 {
			t.Errorf("the deleted organization's team items: %v %v", n, err)
		}
		if _, err := st.DataWorkspace(t.Context(), store.TeamListID(other)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the deleted organization's team list: %v", err)
		}
	})
}

// A team's watchlist digest goes to the team's members only: an import into the organization's
// workspace mails the team's item to the teammate, and not to the owner or another member (who
// get the organization's own list's digest, without the team's item).
func TestTeamDigestGoesToTeam(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		owner := app.SignUp(t, "owner@example.com", "password123")
		teammate := app.SignUp(t, "teammate@example.com", "password123")
		member := app.SignUp(t, "member@example.com", "password123")
		for _, who := range []*testkit.Client{owner, teammate, member} {
			if res := who.Do("PUT", "/api/alerts/settings", map[string]any{"frequency": "import", "threshold": 10}); res.Status != 200 {
				t.Fatalf("settings: %d %s", res.Status, res.Body)
			}
		}
		for _, mail := range []string{"owner@example.com", "teammate@example.com", "member@example.com"} {
			app.Inbox.WaitLink(t, mail, "verify-email")
		}
		org := orgCreate(t, owner, "Digest")
		orgJoin(t, owner, teammate, org, "teammate@example.com", "member")
		orgJoin(t, owner, member, org, "member@example.com", "member")
		app.Inbox.Wait(t, "teammate@example.com") // the invitations
		app.Inbox.Wait(t, "member@example.com")
		team := teamWith(t, owner, org, "Growth", teammate)
		if res := teammate.Do("POST", "/api/workspaces/"+org+"/watchlist?team="+team, map[string]any{"kind": "term", "value": "yoga mat"}); res.Status != 201 {
			t.Fatalf("team watch: %d %s", res.Status, res.Body)
		}
		importSeries(t, owner, app, org)
		if m := app.Inbox.Wait(t, "teammate@example.com").Parse(t); !strings.Contains(m.Text, "yoga mat: rank 148 → 125") {
			t.Errorf("teammate's digest:\n%s", m.Text)
		}
		// The organization's own list is empty: nobody else has anything to be told.
		for _, who := range []string{"owner@example.com", "member@example.com"} {
			if n := app.Inbox.Count(who); n != 0 {
				t.Errorf("%s got %d mails", who, n)
			}
		}
		if n := app.Inbox.Count("teammate@example.com"); n != 0 {
			t.Errorf("the teammate got %d more mails", n)
		}
	})
}
