package organization

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// maxRoles bounds custom roles per organization (the plugin's default is unlimited; a bound keeps
// every permission check's read small).
const maxRoles = 100

var (
	errNoOrgForRole   = bad("YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE", "You must be in an organization to create a role")
	errTooManyRoles   = bad("TOO_MANY_ROLES", "This organization has too many roles")
	errInvalidRes     = bad("INVALID_RESOURCE", "The provided permission includes an invalid resource")
	errRoleNameTaken  = bad("ROLE_NAME_IS_ALREADY_TAKEN", "That role name is already taken")
	errPredefinedRole = bad("CANNOT_DELETE_A_PRE_DEFINED_ROLE", "Cannot delete a pre-defined role")
	errRoleAssigned   = bad("ROLE_IS_ASSIGNED_TO_MEMBERS", "Cannot delete a role that is assigned to members. Please reassign the members to a different role first")
	roleDenied        = map[string]*httpx.Error{
		"create": forbidden("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE", "You are not allowed to create a role"),
		"update": forbidden("YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE", "You are not allowed to update a role"),
		"delete": forbidden("YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE", "You are not allowed to delete a role"),
		"read":   forbidden("YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE", "You are not allowed to read a role"),
		"list":   forbidden("YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE", "You are not allowed to list a role"),
	}
)

// Role is an organizationRole row with its permission decoded.
type Role struct {
	ID             string      `json:"id"`
	OrganizationID string      `json:"organizationId"`
	Role           string      `json:"role"`
	Permission     Permissions `json:"permission"`
	CreatedAt      dbTime      `json:"createdAt"`
	UpdatedAt      *dbTime     `json:"updatedAt"`
}

func (p *Plugin) roles(ctx context.Context, cond string, args ...any) ([]Role, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select "id", "organizationId", "role", "permission", "createdAt", "updatedAt" from "organizationRole" where `+cond+` order by "createdAt", "id" limit 1000`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Role{}
	for rows.Next() {
		var r Role
		var raw string
		var upd dbTime
		if err := rows.Scan(&r.ID, &r.OrganizationID, &r.Role, &raw, &r.CreatedAt, &upd); err != nil {
			return nil, err
		}
		if !upd.IsZero() {
			r.UpdatedAt = &upd
		}
		_ = json.Unmarshal([]byte(raw), &r.Permission)
		out = append(out, r)
	}
	return out, rows.Err()
}

// roleGate checks membership and ac:<action>; a missing organization answers noOrg.
func (p *Plugin) roleGate(w http.ResponseWriter, r *http.Request, c *auth.Current, orgID, action string, noOrg error) (*Member, bool) {
	if orgID == "" && activeOrg(c) == "" {
		auth.WriteError(w, r, noOrg)
		return nil, false
	}
	acAction := action
	if action == "list" {
		acAction = "read"
	}
	return p.gate(w, r, c, orgID, Permissions{"ac": {acAction}}, errNotAMember, roleDenied[action])
}

// checkGrantable refuses unknown resources and permissions the caller does not hold itself, so
// a role can never grant more than its author has.
func (p *Plugin) checkGrantable(r *http.Request, m *Member, perms Permissions, action string) error {
	for res := range perms {
		if _, ok := statements[res]; !ok {
			return errInvalidRes
		}
	}
	var missing []string
	for res, actions := range perms {
		for _, a := range actions {
			ok, err := p.allowed(r.Context(), m.OrganizationID, m.Role, Permissions{res: {a}})
			if err != nil {
				return err
			}
			if !ok {
				missing = append(missing, res+":"+a)
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return roleDenied[action]
	}
	return nil
}

func (p *Plugin) createRole(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		OrganizationID string      `json:"organizationId"`
		Role           *string     `json:"role"`
		Permission     Permissions `json:"permission"`
	}
	if !auth.ReadJSON(w, r, &b, func() error {
		var f auth.Fields
		f.Required("role", b.Role)
		f.MaxLen("role", b.Role, 100)
		if b.Permission == nil {
			f = append(f, "[body.permission] Invalid input: expected record, received undefined")
		}
		return f.Err()
	}) {
		return
	}
	m, ok := p.roleGate(w, r, c, b.OrganizationID, "create", errNoOrgForRole)
	if !ok {
		return
	}
	ctx := r.Context()
	existing, err := p.roles(ctx, `"organizationId" = ?`, m.OrganizationID)
	if err == nil && len(existing) >= maxRoles {
		err = errTooManyRoles
	}
	if err == nil {
		err = p.checkGrantable(r, m, b.Permission, "create")
	}
	if err == nil {
		if _, builtin := builtinRoles[*b.Role]; builtin || hasRoleNamed(existing, *b.Role) {
			err = errRoleNameTaken
		}
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	raw, _ := json.Marshal(b.Permission)
	now := p.now()
	role := Role{ID: newID(), OrganizationID: m.OrganizationID, Role: *b.Role, Permission: b.Permission, CreatedAt: dbTime{now}}
	if _, err := p.db().ExecContext(ctx, p.q(`insert into "organizationRole" ("id", "organizationId", "role", "permission", "createdAt") values (?, ?, ?, ?, ?)`),
		role.ID, role.OrganizationID, role.Role, string(raw), p.st.Time(now)); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]any{"success": true, "roleData": role, "statements": b.Permission})
}

func hasRoleNamed(roles []Role, name string) bool {
	for _, r := range roles {
		if r.Role == name {
			return true
		}
	}
	return false
}

type roleRef struct {
	OrganizationID string `json:"organizationId"`
	RoleName       string `json:"roleName"`
	RoleID         string `json:"roleId"`
}

func (ref roleRef) check() error {
	if ref.RoleName == "" && ref.RoleID == "" {
		return httpx.BadRequest("[body.roleName] Invalid input: expected string, received undefined")
	}
	return nil
}

// findRole finds the referenced role in orgID or answers ROLE_NOT_FOUND.
func (p *Plugin) findRole(ctx context.Context, orgID string, ref roleRef) (*Role, error) {
	cond, arg := `"role" = ?`, ref.RoleName
	if ref.RoleID != "" {
		cond, arg = `"id" = ?`, ref.RoleID
	}
	rs, err := p.roles(ctx, `"organizationId" = ? and `+cond, orgID, arg)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, errRoleNotFound
	}
	return &rs[0], nil
}

func (p *Plugin) deleteRole(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b roleRef
	if !auth.ReadJSON(w, r, &b, func() error { return b.check() }) {
		return
	}
	m, ok := p.roleGate(w, r, c, b.OrganizationID, "delete", errNoActiveOrg)
	if !ok {
		return
	}
	if _, builtin := builtinRoles[b.RoleName]; builtin {
		auth.WriteError(w, r, errPredefinedRole)
		return
	}
	ctx := r.Context()
	role, err := p.findRole(ctx, m.OrganizationID, b)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if n, err := p.membersWithRole(ctx, m.OrganizationID, role.Role); err != nil || n > 0 {
		auth.WriteError(w, r, firstErr(err, errRoleAssigned))
		return
	}
	if _, err := p.db().ExecContext(ctx, p.q(`delete from "organizationRole" where "id" = ?`), role.ID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]bool{"success": true})
}

func (p *Plugin) membersWithRole(ctx context.Context, orgID, role string) (int, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select "role" from "member" where "organizationId" = ?`), orgID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var rs string
		if err := rows.Scan(&rs); err != nil {
			return 0, err
		}
		if hasRole(rs, role) {
			n++
		}
	}
	return n, rows.Err()
}

func (p *Plugin) listRoles(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	m, ok := p.roleGate(w, r, c, r.URL.Query().Get("organizationId"), "list", errNoActiveOrg)
	if !ok {
		return
	}
	rs, err := p.roles(r.Context(), `"organizationId" = ?`, m.OrganizationID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, rs)
}

func (p *Plugin) getRole(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	ref := roleRef{OrganizationID: q.Get("organizationId"), RoleName: q.Get("roleName"), RoleID: q.Get("roleId")}
	if err := ref.check(); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	m, ok := p.roleGate(w, r, c, ref.OrganizationID, "read", errNoActiveOrg)
	if !ok {
		return
	}
	role, err := p.findRole(r.Context(), m.OrganizationID, ref)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, role)
}

func (p *Plugin) updateRole(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		roleRef
		Data *struct {
			Permission Permissions `json:"permission"`
			RoleName   *string     `json:"roleName"`
		} `json:"data"`
	}
	if !auth.ReadJSON(w, r, &b, func() error {
		if b.Data == nil {
			return httpx.BadRequest("[body.data] Invalid input: expected object, received undefined")
		}
		return b.roleRef.check()
	}) {
		return
	}
	m, ok := p.roleGate(w, r, c, b.OrganizationID, "update", errNoActiveOrg)
	if !ok {
		return
	}
	ctx := r.Context()
	role, err := p.findRole(ctx, m.OrganizationID, b.roleRef)
	if err == nil && b.Data.Permission != nil {
		err = p.checkGrantable(r, m, b.Data.Permission, "update")
	}
	if err == nil && b.Data.RoleName != nil && *b.Data.RoleName != role.Role {
		if _, builtin := builtinRoles[*b.Data.RoleName]; builtin {
			err = errRoleNameTaken
		} else if taken, e := p.findRole(ctx, m.OrganizationID, roleRef{RoleName: *b.Data.RoleName}); e == nil && taken != nil {
			err = errRoleNameTaken
		} else if !errors.Is(e, errRoleNotFound) {
			err = e
		}
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	now := p.now()
	if b.Data.Permission != nil {
		role.Permission = b.Data.Permission
	}
	if b.Data.RoleName != nil {
		role.Role = *b.Data.RoleName
	}
	raw, _ := json.Marshal(role.Permission)
	if _, err := p.db().ExecContext(ctx, p.q(`update "organizationRole" set "role" = ?, "permission" = ?, "updatedAt" = ? where "id" = ?`),
		role.Role, string(raw), p.st.Time(now), role.ID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	role.UpdatedAt = &dbTime{now}
	writeJSON(w, map[string]any{"success": true, "roleData": role})
}
