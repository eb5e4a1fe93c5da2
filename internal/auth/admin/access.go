package admin

import (
	"slices"
	"strings"
)

// Statements maps a resource ("user", "session") to the actions a role may take on it.
type Statements map[string][]string

// Roles are Better Auth's default admin roles (spec §6): admin may do everything but
// impersonate other admins; user may do nothing.
var Roles = map[string]Statements{
	"admin": {
		"user":    {"create", "list", "set-role", "ban", "impersonate", "delete", "set-password", "set-email", "set-phone", "get", "update"},
		"session": {"list", "revoke", "delete"},
	},
	"user": {"user": {}, "session": {}},
}

// Connector joins the resources of a permission request: all of them (AND) or any (OR).
type Connector int

const (
	And Connector = iota
	Or
)

// Authorize reports whether statements allow request, as Better Auth's role.authorize: with
// AND every requested resource must allow every requested action (an unknown resource fails);
// with OR one such resource is enough. An empty action list authorizes nothing.
func (st Statements) Authorize(request map[string][]string, c Connector) bool {
	any := false
	for resource, actions := range request {
		allowed, known := st[resource]
		ok := known && len(actions) > 0 && allAllowed(allowed, actions)
		if ok && c == Or {
			return true
		}
		if !ok && c == And {
			return false
		}
		any = any || ok
	}
	return any
}

func allAllowed(allowed, actions []string) bool {
	for _, a := range actions {
		if !slices.Contains(allowed, a) {
			return false
		}
	}
	return true
}

// caller is who asks: what the permission check needs of a user.
type caller struct {
	ID, Email, Role string
	EmailVerified   bool
}

// hasPermission is Better Auth's hasPermission: configured admins (AUTH_ADMIN_USER_IDS, and
// the verified addresses of AUTH_ADMIN_EMAILS) are always allowed; otherwise any one of the
// caller's comma-separated roles granting the request is enough. A missing role is "user".
func (p *Plugin) hasPermission(c caller, request map[string][]string) bool {
	if p.configuredAdmin(c) {
		return true
	}
	if len(request) == 0 {
		return false
	}
	for _, role := range splitRoles(c.Role) {
		if st, ok := Roles[role]; ok && st.Authorize(request, And) {
			return true
		}
	}
	return false
}

// configuredAdmin: an id of AUTH_ADMIN_USER_IDS, or a verified email of AUTH_ADMIN_EMAILS
// (an unverified one could be anybody's sign-up).
func (p *Plugin) configuredAdmin(c caller) bool {
	if c.ID != "" && slices.Contains(p.AdminUserIDs, c.ID) {
		return true
	}
	return c.EmailVerified && c.Email != "" && slices.Contains(p.AdminEmails, strings.ToLower(c.Email))
}

// isAdmin reports whether u counts as an admin for impersonation: an admin role, or configured.
func (p *Plugin) isAdmin(c caller) bool {
	return slices.Contains(splitRoles(c.Role), "admin") || p.configuredAdmin(c)
}

func splitRoles(role string) []string {
	if role == "" {
		role = defaultRole
	}
	parts := strings.Split(role, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

const defaultRole = "user"

// perm builds a one-resource permission request.
func perm(resource string, actions ...string) map[string][]string {
	return map[string][]string{resource: actions}
}
