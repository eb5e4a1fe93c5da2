package organization

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
)

// Permissions maps a resource to the actions granted (or asked for) on it.
type Permissions map[string][]string

// statements are every resource and action a role may hold: the plugin's defaultStatements plus
// the product's own resources (datasets, watchlists, billing of the organization's workspace).
var statements = Permissions{
	"organization": {"update", "delete"},
	"member":       {"create", "update", "delete"},
	"invitation":   {"create", "cancel"},
	"team":         {"create", "update", "delete"},
	"ac":           {"create", "read", "update", "delete"},
	"dataset":      {"read", "import", "delete"},
	"watchlist":    {"read", "write"},
	"billing":      {"read", "manage"},
}

// builtinRoles are the plugin's ownerAc, adminAc and memberAc, extended with our resources:
// members read datasets and watchlists; admins and owners also import, delete and write;
// only owners manage billing.
var builtinRoles = map[string]Permissions{
	"owner": statements,
	"admin": {
		"organization": {"update"}, "member": {"create", "update", "delete"}, "invitation": {"create", "cancel"},
		"team": {"create", "update", "delete"}, "ac": {"create", "read", "update", "delete"},
		"dataset": {"read", "import", "delete"}, "watchlist": {"read", "write"}, "billing": {"read"},
	},
	"member": {"ac": {"read"}, "dataset": {"read"}, "watchlist": {"read"}},
}

const creatorRole = "owner"

// parseRoleList splits "admin, owner" into trimmed, non-empty role names, as the plugin does
// for every role comparison.
func parseRoleList(roles string) []string {
	var out []string
	for _, r := range strings.Split(roles, ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}

func hasRole(roles, role string) bool { return slices.Contains(parseRoleList(roles), role) }

// authorize reports whether role grants the request: every resource's actions (AND), or with
// or=true any one resource's actions.
func (p Permissions) authorize(request Permissions, or bool) bool {
	if len(request) == 0 {
		return false
	}
	for res, actions := range request {
		granted := p[res]
		ok := len(granted) > 0
		for _, a := range actions {
			if !slices.Contains(granted, a) {
				ok = false
				break
			}
		}
		if ok && or {
			return true
		}
		if !ok && !or {
			return false
		}
	}
	return !or
}

// allowed reports whether any one of the comma-separated roles grants request in orgID.
// Custom roles (dynamic access control) come from organizationRole and extend a built-in role
// of the same name, as the plugin merges them.
func (p *Plugin) allowed(ctx context.Context, orgID, roles string, request Permissions) (bool, error) {
	custom, err := p.customRoles(ctx, orgID)
	if err != nil {
		return false, err
	}
	for _, role := range parseRoleList(roles) {
		perms := merged(builtinRoles[role], custom[role])
		if perms.authorize(request, false) {
			return true, nil
		}
	}
	return false, nil
}

func merged(a, b Permissions) Permissions {
	if len(b) == 0 {
		return a
	}
	out := Permissions{}
	for _, m := range []Permissions{a, b} {
		for res, actions := range m {
			for _, x := range actions {
				if !slices.Contains(out[res], x) {
					out[res] = append(out[res], x)
				}
			}
		}
	}
	return out
}

// customRoles reads the organization's dynamic roles; a row whose permission is not a valid
// map is skipped (it grants nothing) rather than failing every check.
func (p *Plugin) customRoles(ctx context.Context, orgID string) (map[string]Permissions, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select "role", "permission" from "organizationRole" where "organizationId" = ?`), orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Permissions{}
	for rows.Next() {
		var role, raw string
		if err := rows.Scan(&role, &raw); err != nil {
			return nil, err
		}
		var perms Permissions
		if json.Unmarshal([]byte(raw), &perms) == nil {
			out[role] = perms
		}
	}
	return out, rows.Err()
}
