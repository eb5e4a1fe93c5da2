package organization

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// memberOrg resolves the organization of a members query and checks the caller belongs to it.
func (p *Plugin) memberOrg(w http.ResponseWriter, r *http.Request) (*auth.Current, *Member, bool) {
	c, ok := p.caller(w, r)
	if !ok {
		return nil, nil, false
	}
	q := r.URL.Query()
	orgID := q.Get("organizationId")
	if s := q.Get("organizationSlug"); s != "" {
		o, err := p.orgBy(r.Context(), s, true)
		if err != nil || o == nil {
			auth.WriteError(w, r, firstErr(err, errOrgNotFound))
			return nil, nil, false
		}
		orgID = o.ID
	}
	m, ok := p.gate(w, r, c, orgID, nil, errNotAMember, nil)
	return c, m, ok
}

func (p *Plugin) listMembers(w http.ResponseWriter, r *http.Request) {
	_, m, ok := p.memberOrg(w, r)
	if !ok {
		return
	}
	limit, err := queryInt(r, "limit", membershipLimit, 1000)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	offset, err := queryInt(r, "offset", 0, 1<<31-1)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	members, total, err := p.members(r.Context(), m.OrganizationID, limit, offset)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]any{"members": members, "total": total})
}

func (p *Plugin) getActiveMember(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	m, ok := p.gate(w, r, c, "", nil, errMemberNotFound, nil)
	if ok {
		writeJSON(w, m)
	}
}

func (p *Plugin) getActiveMemberRole(w http.ResponseWriter, r *http.Request) {
	_, m, ok := p.memberOrg(w, r)
	if !ok {
		return
	}
	if uid := r.URL.Query().Get("userId"); uid != "" {
		other, err := p.membership(r.Context(), m.OrganizationID, uid)
		if err != nil || other == nil {
			auth.WriteError(w, r, firstErr(err, errNotAMember))
			return
		}
		m = other
	}
	writeJSON(w, map[string]string{"role": m.Role})
}

func (p *Plugin) removeMember(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		MemberIDOrEmail *string `json:"memberIdOrEmail"`
		OrganizationID  string  `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("memberIdOrEmail", b.MemberIDOrEmail) }) {
		return
	}
	me, ok := p.gate(w, r, c, b.OrganizationID, nil, errMemberNotFound, nil)
	if !ok {
		return
	}
	ctx, orgID := r.Context(), me.OrganizationID
	var target *Member
	var err error
	if strings.Contains(*b.MemberIDOrEmail, "@") {
		target, err = p.memberWhere(ctx, `m."organizationId" = ? and lower(u."email") = lower(?)`, orgID, *b.MemberIDOrEmail)
	} else {
		target, err = p.memberWhere(ctx, `m."organizationId" = ? and m."id" = ?`, orgID, *b.MemberIDOrEmail)
	}
	if err != nil || target == nil {
		auth.WriteError(w, r, firstErr(err, errMemberNotFound))
		return
	}
	if hasRole(target.Role, creatorRole) {
		if !hasRole(me.Role, creatorRole) {
			auth.WriteError(w, r, errOnlyOwner)
			return
		}
		if n, err := p.owners(ctx, orgID); err != nil || n <= 1 {
			auth.WriteError(w, r, firstErr(err, errOnlyOwner))
			return
		}
	}
	if ok, err := p.allowed(ctx, orgID, me.Role, Permissions{"member": {"delete"}}); err != nil || !ok {
		auth.WriteError(w, r, firstErr(err, errCannotDeleteMem))
		return
	}
	if err := p.deleteMember(r, target); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]any{"member": target})
}

// deleteMember removes a membership, its team memberships in the organization, and the
// organization from the member's active sessions.
func (p *Plugin) deleteMember(r *http.Request, m *Member) error {
	ctx := r.Context()
	tx, err := p.db().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{
		`delete from "teamMember" where "userId" = ? and "teamId" in (select "id" from "team" where "organizationId" = ?)`,
		`update "session" set "activeOrganizationId" = null, "activeTeamId" = null where "userId" = ? and "activeOrganizationId" = ?`,
	} {
		if _, err := tx.ExecContext(ctx, p.q(q), m.UserID, m.OrganizationID); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, p.q(`delete from "member" where "id" = ?`), m.ID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return p.st.InvalidateUser(ctx, m.UserID) // their cached sessions named the organization
}

// roleBody accepts a role as a string or an array of strings, as the plugin does.
func parseRoleInput(raw json.RawMessage) (string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return strings.Join(parseRoleList(one), ","), nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return "", httpx.BadRequest("[body.role] Invalid input: expected string or array")
	}
	return strings.Join(parseRoleList(strings.Join(many, ",")), ","), nil
}

func (p *Plugin) updateMemberRole(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		Role           json.RawMessage `json:"role"`
		MemberID       *string         `json:"memberId"`
		OrganizationID string          `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("memberId", b.MemberID) }) {
		return
	}
	role, err := parseRoleInput(b.Role)
	if err == nil && role == "" {
		err = httpx.NewError(http.StatusBadRequest, "BAD_REQUEST", "")
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	me, ok := p.gate(w, r, c, b.OrganizationID, nil, errMemberNotFound, nil)
	if !ok {
		return
	}
	ctx, orgID := r.Context(), me.OrganizationID
	target, err := p.memberWhere(ctx, `m."id" = ?`, *b.MemberID)
	if err != nil || target == nil {
		auth.WriteError(w, r, firstErr(err, errMemberNotFound))
		return
	}
	if target.OrganizationID != orgID {
		auth.WriteError(w, r, errCannotUpdateMem)
		return
	}
	meOwner, targetOwner, toOwner := hasRole(me.Role, creatorRole), hasRole(target.Role, creatorRole), hasRole(role, creatorRole)
	if (targetOwner || toOwner) && !meOwner {
		auth.WriteError(w, r, errCannotUpdateMem)
		return
	}
	if targetOwner && !toOwner {
		if n, err := p.owners(ctx, orgID); err != nil || n <= 1 {
			auth.WriteError(w, r, firstErr(err, errWithoutOwner))
			return
		}
	}
	if ok, err := p.allowed(ctx, orgID, me.Role, Permissions{"member": {"update"}}); err != nil || !ok {
		auth.WriteError(w, r, firstErr(err, errCannotUpdateMem))
		return
	}
	if ok, err := p.rolesExist(r, orgID, role); err != nil || !ok {
		auth.WriteError(w, r, firstErr(err, errRoleNotFound))
		return
	}
	if _, err := p.db().ExecContext(ctx, p.q(`update "member" set "role" = ? where "id" = ?`), role, target.ID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	target.Role = role
	target.User = nil // the plugin answers the member row alone
	writeJSON(w, target)
}

// rolesExist reports whether every role is built in or one of the organization's custom roles.
func (p *Plugin) rolesExist(r *http.Request, orgID, roles string) (bool, error) {
	unknown, err := p.unknownRoles(r, orgID, roles)
	return len(unknown) == 0, err
}

// unknownRoles lists the roles that are neither built in nor custom roles of the organization.
func (p *Plugin) unknownRoles(r *http.Request, orgID, roles string) ([]string, error) {
	custom, err := p.customRoles(r.Context(), orgID)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, role := range parseRoleList(roles) {
		if _, ok := builtinRoles[role]; !ok {
			if _, ok := custom[role]; !ok {
				out = append(out, role)
			}
		}
	}
	return out, nil
}

func (p *Plugin) leave(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		OrganizationID *string `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("organizationId", b.OrganizationID) }) {
		return
	}
	m, err := p.membership(r.Context(), *b.OrganizationID, c.User.ID)
	if err != nil || m == nil {
		auth.WriteError(w, r, firstErr(err, errMemberNotFound))
		return
	}
	if hasRole(m.Role, creatorRole) {
		if n, err := p.owners(r.Context(), m.OrganizationID); err != nil || n <= 1 {
			auth.WriteError(w, r, firstErr(err, errOnlyOwner))
			return
		}
	}
	if err := p.deleteMember(r, m); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if activeOrg(c) == m.OrganizationID {
		_ = p.activate(w, r, c, nil)
	}
	writeJSON(w, m)
}

func (p *Plugin) hasPermission(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		Permission     Permissions `json:"permission"`
		Permissions    Permissions `json:"permissions"`
		OrganizationID string      `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error {
		if b.Permissions == nil && b.Permission == nil {
			return httpx.BadRequest("invalid permission check. no permission(s) were passed.")
		}
		return nil
	}) {
		return
	}
	perms := b.Permissions
	if perms == nil {
		perms = b.Permission
	}
	m, ok := p.gate(w, r, c, b.OrganizationID, nil, errMemberNotFound, nil)
	if !ok {
		return
	}
	granted, err := p.allowed(r.Context(), m.OrganizationID, m.Role, perms)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]any{"error": nil, "success": granted})
}
