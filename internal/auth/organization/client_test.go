package organization_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// runNode runs a script of testdata from web/ (so it finds better-auth in web/node_modules) with
// args, and returns its JSON lines by step.
func runNode(t *testing.T, script string, args ...string) map[string]map[string]any {
	t.Helper()
	web, _ := filepath.Abs("../../../web")
	src, err := os.ReadFile(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(web, ".org-*.mjs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	f.Write(src)
	f.Close()
	cmd := exec.CommandContext(t.Context(), "node", append([]string{f.Name()}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s\n%s", script, err, out, stderr.String())
	}
	steps := map[string]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			steps[m["step"].(string)] = m
		}
	}
	return steps
}

func errOf(status float64, code string) map[string]any {
	return map[string]any{"status": status, "code": code}
}

// The official better-auth client with organizationClient (teams, dynamic access control)
// creates, invites, accepts, sets active, makes teams and roles against the Go server.
func TestOfficialOrganizationClient(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		steps := runNode(t, "client.mjs", app.URL)
		want := map[string]map[string]any{
			"owner-sign-up":          {"error": nil},
			"guest-sign-up":          {"error": nil},
			"check-slug":             {"error": nil, "status": true},
			"create":                 {"error": nil, "name": "Client Org", "slug": "client-org", "members": 1.0, "role": "owner"},
			"check-slug-taken":       {"error": errOf(400, "ORGANIZATION_SLUG_ALREADY_TAKEN")},
			"owner-session":          {"active": true},
			"list":                   {"error": nil, "count": 1.0},
			"invite":                 {"error": nil, "status": "pending", "role": "member"},
			"get-invitation":         {"error": nil, "organizationName": "Client Org", "inviterEmail": "owner@example.com"},
			"accept-by-owner":        {"error": errOf(403, "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION")},
			"accept":                 {"error": nil, "role": "member", "status": "accepted"},
			"set-active":             {"error": nil, "id": true, "members": nil}, // the organization alone, as 1.7.25 answers
			"get-active-member":      {"error": nil, "role": "member"},
			"get-active-member-role": {"error": nil, "role": "member"},
			"member-invites":         {"error": errOf(403, "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION")},
			"create-team":            {"error": nil, "name": "Research"},
			"add-team-member":        {"error": nil, "teamId": true},
			"list-user-teams":        {"error": nil, "count": 1.0},
			"set-active-team":        {"error": nil},
			"guest-session":          {"activeTeam": true, "activeOrg": true},
			"list-teams":             {"error": nil, "count": 2.0}, // with the default team, named after the organization
			"create-role":            {"error": nil, "success": true, "role": "analyst"},
			"list-roles":             {"error": nil, "count": 1.0},
			"get-role":               {"error": nil, "import": true},
			"has-permission-before":  {"error": nil, "success": false},
			"list-members":           {"error": nil, "total": 2.0},
			"update-member-role":     {"error": nil, "role": "analyst"},
			"has-permission-after":   {"error": nil, "success": true},
			"member-deletes-role":    {"error": errOf(403, "YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE")},
			"leave":                  {"error": nil},
			"last-owner-leaves":      {"error": errOf(400, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER")},
			"delete":                 {"error": nil},
			"list-after":             {"error": nil, "count": 0.0},
		}
		for step, fields := range want {
			if steps[step] == nil {
				t.Errorf("%s: no output", step)
				continue
			}
			for k, v := range fields {
				if got := steps[step][k]; !reflect.DeepEqual(got, v) {
					t.Errorf("%s: %s = %v, want %v (all: %v)", step, k, got, v, steps[step])
				}
			}
		}
	})
}
