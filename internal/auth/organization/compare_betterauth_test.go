package organization_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/testkit/authcompare"
)

// The same sequence of organization requests goes to a Better Auth 1.7 server built from the npm
// package (testdata/betterauth.mjs: organization plugin with teams and dynamic access control,
// roles extended with our resources) and to ours; every answer is compared field by field:
// status, then body keys and values (ids by the order they first appear, times as "a time").
// Differences we chose carry their reason in the step's accept.
func TestSameOrganizationAnswersAsBetterAuth(t *testing.T) {
	ba, _ := startReference(t) // authcompare.Modules fails the test without better-auth and pg
	ours := testkit.Server(t, testkit.Postgres(t), nil)
	servers := []*peer{ba, {name: "sellertrends", base: ours.URL}}
	for _, s := range servers {
		s.clients, s.vars, s.labels = map[string]*http.Client{}, map[string]string{}, map[string]string{}
	}
	for _, st := range orgSteps() {
		a, b := servers[0].do(t, st), servers[1].do(t, st)
		if diff := compareAnswers(a, b, st); diff != "" {
			t.Errorf("%s: %s\n  better-auth:  %d %s\n  sellertrends: %d %s", st.name, diff, a.status, a.raw, b.status, b.raw)
		}
	}
}

// orgSteps: three users; the owner creates, invites, makes a team and a custom role; the guest
// accepts, works in it and leaves; the outsider is refused.
func orgSteps() []req {
	signUp := func(who string) req {
		return req{name: who + " signs up", client: who, method: "POST", path: "/sign-up/email",
			body: map[string]any{"email": who + "@example.com", "password": "password123", "name": who}, save: map[string]string{who + "Id": "user.id"}}
	}
	o := "/organization/"
	return []req{
		signUp("owner"), signUp("guest"), signUp("outsider"),
		{name: "check a free slug", client: "owner", method: "POST", path: o + "check-slug", body: map[string]any{"slug": "acme"}},
		{name: "create", client: "owner", method: "POST", path: o + "create", body: map[string]any{"name": "Acme", "slug": "acme"}, save: map[string]string{"org": "id"}},
		{name: "create with a taken slug", client: "outsider", method: "POST", path: o + "create", body: map[string]any{"name": "Acme 2", "slug": "acme"}},
		{name: "check a taken slug", client: "owner", method: "POST", path: o + "check-slug", body: map[string]any{"slug": "acme"}},
		{name: "create without a name", client: "owner", method: "POST", path: o + "create", body: map[string]any{"slug": "nameless"}},
		{name: "list", client: "owner", method: "GET", path: o + "list"},
		{name: "update", client: "owner", method: "POST", path: o + "update", body: map[string]any{"organizationId": "{org}", "data": map[string]any{"name": "Acme Sellers"}}},
		{name: "invite", client: "owner", method: "POST", path: o + "invite-member", body: map[string]any{"email": "guest@example.com", "role": "member", "organizationId": "{org}"}, save: map[string]string{"inv": "id"}},
		{name: "invite again", client: "owner", method: "POST", path: o + "invite-member", body: map[string]any{"email": "guest@example.com", "role": "member", "organizationId": "{org}"}},
		{name: "invite with an unknown role", client: "owner", method: "POST", path: o + "invite-member", body: map[string]any{"email": "x@example.com", "role": "boss", "organizationId": "{org}"},
			accept: "the plugin's message is \"ROLE_NOT_FOUND: boss\" without a code; ours has the same message and the code ROLE_NOT_FOUND, as every other error"},
		{name: "list invitations", client: "owner", method: "GET", path: o + "list-invitations?organizationId={org}"},
		{name: "outsider reads the invitation", client: "outsider", method: "GET", path: o + "get-invitation?id={inv}"},
		{name: "outsider accepts", client: "outsider", method: "POST", path: o + "accept-invitation", body: map[string]any{"invitationId": "{inv}"}},
		{name: "guest reads the invitation", client: "guest", method: "GET", path: o + "get-invitation?id={inv}"},
		{name: "guest accepts", client: "guest", method: "POST", path: o + "accept-invitation", body: map[string]any{"invitationId": "{inv}"}, save: map[string]string{"guestMember": "member.id"}},
		{name: "accept twice", client: "guest", method: "POST", path: o + "accept-invitation", body: map[string]any{"invitationId": "{inv}"}},
		{name: "member invites", client: "guest", method: "POST", path: o + "invite-member", body: map[string]any{"email": "y@example.com", "role": "member", "organizationId": "{org}"}},
		{name: "member updates", client: "guest", method: "POST", path: o + "update", body: map[string]any{"organizationId": "{org}", "data": map[string]any{"name": "Mine"}}},
		{name: "set active", client: "guest", method: "POST", path: o + "set-active", body: map[string]any{"organizationId": "{org}"}},
		{name: "active member", client: "guest", method: "GET", path: o + "get-active-member"},
		{name: "active member role", client: "guest", method: "GET", path: o + "get-active-member-role"},
		{name: "full organization", client: "owner", method: "GET", path: o + "get-full-organization?organizationId={org}"},
		{name: "outsider's full organization", client: "outsider", method: "GET", path: o + "get-full-organization?organizationId={org}"},
		{name: "outsider sets it active", client: "outsider", method: "POST", path: o + "set-active", body: map[string]any{"organizationId": "{org}"}},
		{name: "list members", client: "guest", method: "GET", path: o + "list-members?organizationId={org}"},
		{name: "create team", client: "owner", method: "POST", path: o + "create-team", body: map[string]any{"name": "Research", "organizationId": "{org}"}, save: map[string]string{"team": "id"}},
		{name: "member creates a team", client: "guest", method: "POST", path: o + "create-team", body: map[string]any{"name": "Mine", "organizationId": "{org}"}},
		// organizationId is named: Better Auth reads the active organization from its cookie cache,
		// which still holds the session from before create.
		{name: "add team member", client: "owner", method: "POST", path: o + "add-team-member", body: map[string]any{"teamId": "{team}", "userId": "{guestId}", "organizationId": "{org}"}},
		{name: "add an outsider to the team", client: "owner", method: "POST", path: o + "add-team-member", body: map[string]any{"teamId": "{team}", "userId": "{outsiderId}", "organizationId": "{org}"}},
		{name: "list teams", client: "owner", method: "GET", path: o + "list-teams?organizationId={org}"},
		{name: "list user teams", client: "guest", method: "GET", path: o + "list-user-teams"},
		{name: "list team members", client: "guest", method: "GET", path: o + "list-team-members?teamId={team}"},
		{name: "set active team", client: "guest", method: "POST", path: o + "set-active-team", body: map[string]any{"teamId": "{team}"}},
		{name: "create role", client: "owner", method: "POST", path: o + "create-role", body: map[string]any{"role": "analyst", "permission": map[string]any{"dataset": []string{"read", "import"}}, "organizationId": "{org}"}},
		{name: "create a built-in role", client: "owner", method: "POST", path: o + "create-role", body: map[string]any{"role": "admin", "permission": map[string]any{"dataset": []string{"read"}}, "organizationId": "{org}"}},
		{name: "create a role over an unknown resource", client: "owner", method: "POST", path: o + "create-role", body: map[string]any{"role": "odd", "permission": map[string]any{"rockets": []string{"launch"}}, "organizationId": "{org}"}},
		{name: "list roles", client: "owner", method: "GET", path: o + "list-roles?organizationId={org}"},
		{name: "get role", client: "owner", method: "GET", path: o + "get-role?roleName=analyst&organizationId={org}"},
		{name: "member may not import", client: "guest", method: "POST", path: o + "has-permission", body: map[string]any{"permissions": map[string]any{"dataset": []string{"import"}}, "organizationId": "{org}"}},
		{name: "give the guest the custom role", client: "owner", method: "POST", path: o + "update-member-role", body: map[string]any{"memberId": "{guestMember}", "role": "analyst", "organizationId": "{org}"}},
		{name: "custom role may import", client: "guest", method: "POST", path: o + "has-permission", body: map[string]any{"permissions": map[string]any{"dataset": []string{"import"}}, "organizationId": "{org}"}},
		{name: "custom role may not delete", client: "guest", method: "POST", path: o + "has-permission", body: map[string]any{"permissions": map[string]any{"dataset": []string{"delete"}}, "organizationId": "{org}"}},
		{name: "delete an assigned role", client: "owner", method: "POST", path: o + "delete-role", body: map[string]any{"roleName": "analyst", "organizationId": "{org}"}},
		{name: "member deletes a role", client: "guest", method: "POST", path: o + "delete-role", body: map[string]any{"roleName": "analyst", "organizationId": "{org}"}},
		{name: "guest leaves", client: "guest", method: "POST", path: o + "leave", body: map[string]any{"organizationId": "{org}"}},
		{name: "the only owner leaves", client: "owner", method: "POST", path: o + "leave", body: map[string]any{"organizationId": "{org}"}},
		{name: "outsider deletes", client: "outsider", method: "POST", path: o + "delete", body: map[string]any{"organizationId": "{org}"}},
		{name: "delete", client: "owner", method: "POST", path: o + "delete", body: map[string]any{"organizationId": "{org}"}},
		{name: "list after deleting", client: "owner", method: "GET", path: o + "list"},
	}
}

// req is one request, sent by a named client with its own cookies; path and body may use
// {var}s saved from earlier answers.
type req struct {
	name, client, method, path string
	body                       any
	save                       map[string]string // var <- JSON path ("user.id")
	accept                     string            // why a difference in the body is accepted
}

type answer struct {
	status int
	raw    []byte
	body   any
}

type peer struct {
	name, base string
	clients    map[string]*http.Client
	vars       map[string]string
	labels     map[string]string
}

func (p *peer) expand(v string) string {
	for k, val := range p.vars {
		v = strings.ReplaceAll(v, "{"+k+"}", val)
	}
	return v
}

func (p *peer) do(t *testing.T, r req) answer {
	t.Helper()
	c, ok := p.clients[r.client]
	if !ok {
		jar, _ := cookiejar.New(nil)
		c = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		p.clients[r.client] = c
	}
	var rd io.Reader
	if r.body != nil {
		raw, _ := json.Marshal(r.body)
		rd = strings.NewReader(p.expand(string(raw)))
	}
	hr, _ := http.NewRequest(r.method, p.base+"/api/auth"+p.expand(r.path), rd)
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Origin", p.base)
	res, err := c.Do(hr)
	if err != nil {
		t.Fatalf("%s on %s: %v", r.name, p.name, err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	a := answer{status: res.StatusCode, raw: bytes.TrimSpace(raw)}
	if len(a.raw) > 0 {
		_ = json.Unmarshal(a.raw, &a.body)
	}
	for v, path := range r.save {
		x, ok := dig(a.body, path)
		if !ok {
			t.Fatalf("%s on %s: no %s in %s", r.name, p.name, path, raw)
		}
		p.vars[v] = fmt.Sprint(x)
	}
	a.body = p.normalize(a.body, "")
	return a
}

func dig(v any, path string) (any, bool) {
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		v = m[part]
	}
	return v, v != nil
}

// Values each server makes up are compared by the order they first appear; times as times.
var (
	madeUp = map[string]bool{"id": true, "userId": true, "token": true, "organizationId": true, "teamId": true, "inviterId": true,
		"activeOrganizationId": true, "activeTeamId": true}
	times = map[string]bool{"createdAt": true, "updatedAt": true, "expiresAt": true}
)

func (p *peer) normalize(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := map[string]any{}
		for _, k := range keys {
			out[k] = p.normalize(x[k], k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = p.normalize(x[i], key)
		}
		return out
	case string:
		switch {
		case madeUp[key]:
			if l, ok := p.labels[x]; ok {
				return l
			}
			l := fmt.Sprintf("<v%d>", len(p.labels)+1)
			p.labels[x] = l
			return l
		case times[key]:
			if _, err := time.Parse(time.RFC3339, x); err == nil {
				return "<time>"
			}
		case key == "ipAddress":
			return "<ip>"
		}
		return strings.ReplaceAll(x, p.base, "<base>")
	}
	return v
}

func compareAnswers(a, b answer, r req) string {
	if a.status != b.status {
		return fmt.Sprintf("status %d vs %d", a.status, b.status)
	}
	if r.accept != "" {
		return ""
	}
	am, aok := a.body.(map[string]any)
	bm, bok := b.body.(map[string]any)
	if aok && bok && am["code"] == "VALIDATION_ERROR" && bm["code"] == "VALIDATION_ERROR" {
		return "" // zod's wording of a validation failure is not ours word for word
	}
	return authcompare.FirstDiff(a.body, b.body, "")
}

// startReference runs testdata/betterauth.mjs (from web/, where its packages are) on a fresh
// PostgreSQL schema.
func startReference(t *testing.T) (*peer, string) {
	t.Helper()
	url, schema := testkit.PostgresSchema(t)
	base := authcompare.Node(t, "testdata/betterauth.mjs", []string{testkit.PostgresURL(), schema})
	p := &peer{name: "better-auth", base: base}
	p.clients, p.vars, p.labels = map[string]*http.Client{}, map[string]string{}, map[string]string{}
	return p, url
}
