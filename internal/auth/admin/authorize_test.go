package admin

import "testing"

// Better Auth's role.authorize: AND needs every resource and action; OR any one resource.
func TestAuthorizeConnectors(t *testing.T) {
	st := Roles["admin"]
	cases := []struct {
		req     map[string][]string
		c       Connector
		want    bool
		comment string
	}{
		{map[string][]string{"user": {"list", "ban"}}, And, true, "all actions allowed"},
		{map[string][]string{"user": {"list", "impersonate-admins"}}, And, false, "one action missing"},
		{map[string][]string{"user": {"list"}, "session": {"revoke"}}, And, true, "two resources"},
		{map[string][]string{"user": {"list"}, "billing": {"read"}}, And, false, "unknown resource under AND"},
		{map[string][]string{"user": {"list"}, "billing": {"read"}}, Or, true, "unknown resource under OR"},
		{map[string][]string{"user": {"impersonate-admins"}, "session": {"list"}}, Or, true, "one resource enough"},
		{map[string][]string{"user": {"impersonate-admins"}}, Or, false, "nothing allowed"},
		{map[string][]string{"user": {}}, Or, false, "empty action list"},
	}
	for _, c := range cases {
		if got := st.Authorize(c.req, c.c); got != c.want {
			t.Errorf("%s: %v = %v, want %v", c.comment, c.req, got, c.want)
		}
	}
	if Roles["user"].Authorize(map[string][]string{"user": {"list"}}, Or) {
		t.Error("the user role may list users")
	}
	p := &Plugin{AdminEmails: []string{"boss@example.com"}, AdminUserIDs: []string{"id1"}}
	if !p.hasPermission(caller{ID: "id1", Role: "user"}, perm("user", "delete")) {
		t.Error("configured id refused")
	}
	if p.hasPermission(caller{Email: "Boss@Example.com", Role: "user"}, perm("user", "delete")) {
		t.Error("unverified configured email allowed")
	}
	if !p.hasPermission(caller{Email: "Boss@Example.com", EmailVerified: true}, perm("user", "delete")) {
		t.Error("verified configured email refused")
	}
	if !p.hasPermission(caller{Role: "user, admin"}, perm("user", "list")) || p.hasPermission(caller{Role: ""}, perm("user", "list")) {
		t.Error("comma-separated roles / default role")
	}
}
