package organization

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
)

// The plugin's defaults: invitations expire after 48 hours; at most 100 pending per organization.
const (
	invitationExpiresIn = 48 * time.Hour
	invitationLimit     = 100
)

// Invitation is the plugin's invitation record.
type Invitation struct {
	ID             string  `json:"id"`
	OrganizationID string  `json:"organizationId"`
	Email          string  `json:"email"`
	Role           *string `json:"role"`
	TeamID         *string `json:"teamId"`
	Status         string  `json:"status"`
	ExpiresAt      dbTime  `json:"expiresAt"`
	CreatedAt      dbTime  `json:"createdAt"`
	InviterID      string  `json:"inviterId"`
}

const invCols = `"id", "organizationId", "email", "role", "teamId", "status", "expiresAt", "createdAt", "inviterId"`

func scanInv(row interface{ Scan(...any) error }) (*Invitation, error) {
	var v Invitation
	err := row.Scan(&v.ID, &v.OrganizationID, &v.Email, &v.Role, &v.TeamID, &v.Status, &v.ExpiresAt, &v.CreatedAt, &v.InviterID)
	return &v, err
}

func (p *Plugin) invitation(ctx context.Context, id string) (*Invitation, error) {
	v, err := scanInv(p.db().QueryRowContext(ctx, p.q(`select `+invCols+` from "invitation" where "id" = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return v, err
}

func (p *Plugin) invitations(ctx context.Context, cond string, args ...any) ([]*Invitation, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select `+invCols+` from "invitation" where `+cond+` order by "createdAt", "id" limit 1000`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*Invitation{}
	for rows.Next() {
		v, err := scanInv(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (p *Plugin) setStatus(ctx context.Context, v *Invitation, status string) error {
	_, err := p.db().ExecContext(ctx, p.q(`update "invitation" set "status" = ? where "id" = ?`), status, v.ID)
	v.Status = status
	return err
}

func (p *Plugin) inviteMember(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		Email          *string         `json:"email"`
		Role           json.RawMessage `json:"role"`
		OrganizationID string          `json:"organizationId"`
		Resend         bool            `json:"resend"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("email", b.Email) }) {
		return
	}
	orgID := b.OrganizationID
	if orgID == "" {
		orgID = activeOrg(c)
	}
	if orgID == "" {
		auth.WriteError(w, r, errOrgNotFound)
		return
	}
	email := strings.ToLower(strings.TrimSpace(*b.Email))
	if !strings.Contains(email, "@") || len(email) > 254 {
		auth.WriteError(w, r, auth.ErrInvalidEmail)
		return
	}
	me, ok := p.gate(w, r, c, orgID, Permissions{"invitation": {"create"}}, errMemberNotFound, errCannotInvite)
	if !ok {
		return
	}
	role, err := parseRoleInput(b.Role)
	if err == nil && role == "" {
		err = errRoleNotFound
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	ctx := r.Context()
	// The plugin names the unknown roles in its message ("ROLE_NOT_FOUND: boss").
	if unknown, err := p.unknownRoles(r, orgID, role); err != nil || len(unknown) > 0 {
		auth.WriteError(w, r, firstErr(err, bad("ROLE_NOT_FOUND", "ROLE_NOT_FOUND: "+strings.Join(unknown, ", "))))
		return
	}
	if hasRole(role, creatorRole) && !hasRole(me.Role, creatorRole) {
		auth.WriteError(w, r, errCannotInviteRole)
		return
	}
	if m, err := p.memberWhere(ctx, `m."organizationId" = ? and lower(u."email") = ?`, orgID, email); err != nil || m != nil {
		auth.WriteError(w, r, firstErr(err, errAlreadyMember))
		return
	}
	now := p.now()
	pending, err := p.invitations(ctx, `"organizationId" = ? and lower("email") = ? and "status" = 'pending' and "expiresAt" > ?`, orgID, email, p.st.Time(now))
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	org, err := p.orgBy(ctx, orgID, false)
	if err != nil || org == nil {
		auth.WriteError(w, r, firstErr(err, errOrgNotFound))
		return
	}
	exp := now.Add(invitationExpiresIn)
	if len(pending) > 0 {
		if !b.Resend {
			auth.WriteError(w, r, errAlreadyInvited)
			return
		}
		v := pending[0]
		if v.Role != nil && hasRole(*v.Role, creatorRole) && !hasRole(me.Role, creatorRole) {
			auth.WriteError(w, r, errCannotInviteRole)
			return
		}
		if _, err := p.db().ExecContext(ctx, p.q(`update "invitation" set "expiresAt" = ? where "id" = ?`), p.st.Time(exp), v.ID); err != nil {
			auth.WriteError(w, r, err)
			return
		}
		v.ExpiresAt = dbTime{exp}
		p.sendInvitation(r, c, org, v)
		writeJSON(w, v)
		return
	}
	var n int
	if err := p.db().QueryRowContext(ctx, p.q(`select count(*) from "invitation" where "organizationId" = ? and "status" = 'pending'`), orgID).Scan(&n); err != nil || n >= invitationLimit {
		auth.WriteError(w, r, firstErr(err, errInvitationLimit))
		return
	}
	if err := p.checkSeats(ctx, orgID, 1); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	v := &Invitation{ID: newID(), OrganizationID: orgID, Email: email, Role: &role, Status: "pending", ExpiresAt: dbTime{exp}, CreatedAt: dbTime{now}, InviterID: c.User.ID}
	if _, err := p.db().ExecContext(ctx, p.q(`insert into "invitation" (`+invCols+`) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		v.ID, v.OrganizationID, v.Email, v.Role, nil, v.Status, p.st.Time(exp), p.st.Time(now), v.InviterID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	p.sendInvitation(r, c, org, v)
	writeJSON(w, v)
}

// sendInvitation mails the invitation link; a failed send is logged by the caller's mailer
// and does not undo the invitation (it can be resent).
func (p *Plugin) sendInvitation(r *http.Request, c *auth.Current, org *Organization, v *Invitation) {
	link := p.auth.Config().BaseURL.JoinPath("accept-invitation", url.PathEscape(v.ID)).String()
	inviter := c.User.Name
	if inviter == "" {
		inviter = c.User.Email
	}
	_ = p.auth.Mail().Send(r.Context(), mail.Invitation(v.Email, inviter, org.Name, link))
}

// recipientInvitation loads a pending, unexpired invitation addressed to the caller.
func (p *Plugin) recipientInvitation(w http.ResponseWriter, r *http.Request, c *auth.Current, id string, checkExpiry bool) (*Invitation, bool) {
	v, err := p.invitation(r.Context(), id)
	if err != nil || v == nil || v.Status != "pending" || (checkExpiry && v.ExpiresAt.Before(p.now())) {
		auth.WriteError(w, r, firstErr(err, errInvitationNone))
		return nil, false
	}
	if !strings.EqualFold(v.Email, c.User.Email) {
		auth.WriteError(w, r, errNotRecipient)
		return nil, false
	}
	return v, true
}

func invitationID(w http.ResponseWriter, r *http.Request) (string, bool) {
	var b struct {
		InvitationID *string `json:"invitationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("invitationId", b.InvitationID) }) {
		return "", false
	}
	return *b.InvitationID, true
}

func (p *Plugin) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	id, ok := invitationID(w, r)
	if !ok {
		return
	}
	v, ok := p.recipientInvitation(w, r, c, id, true)
	if !ok {
		return
	}
	ctx := r.Context()
	var n int
	if err := p.db().QueryRowContext(ctx, p.q(`select count(*) from "member" where "organizationId" = ?`), v.OrganizationID).Scan(&n); err != nil || n >= membershipLimit {
		auth.WriteError(w, r, firstErr(err, errMembershipLimit))
		return
	}
	// The invitation already holds its seat: accepting must only fit within the plan.
	if err := p.checkSeats(ctx, v.OrganizationID, 0); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	role := "member"
	if v.Role != nil && *v.Role != "" {
		role = *v.Role
	}
	if existing, err := p.membership(ctx, v.OrganizationID, c.User.ID); err != nil || existing != nil {
		auth.WriteError(w, r, firstErr(err, errAlreadyMember))
		return
	}
	now := p.now()
	m := &Member{ID: newID(), OrganizationID: v.OrganizationID, UserID: c.User.ID, Role: role, CreatedAt: dbTime{now}}
	tx, err := p.db().BeginTx(ctx, nil)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	defer tx.Rollback()
	// The status moves from pending once, so two concurrent accepts make one member.
	res, err := tx.ExecContext(ctx, p.q(`update "invitation" set "status" = 'accepted' where "id" = ? and "status" = 'pending'`), v.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if k, _ := res.RowsAffected(); k != 1 {
		auth.WriteError(w, r, errInvitationNone)
		return
	}
	if _, err := tx.ExecContext(ctx, p.q(`insert into "member" ("id", "organizationId", "userId", "role", "createdAt") values (?, ?, ?, ?, ?)`),
		m.ID, m.OrganizationID, m.UserID, m.Role, p.st.Time(now)); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if err := tx.Commit(); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	v.Status = "accepted"
	if err := p.activate(w, r, c, v.OrganizationID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]any{"invitation": v, "member": m})
}

func (p *Plugin) rejectInvitation(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	id, ok := invitationID(w, r)
	if !ok {
		return
	}
	v, ok := p.recipientInvitation(w, r, c, id, false)
	if !ok {
		return
	}
	if err := p.setStatus(r.Context(), v, "rejected"); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]any{"invitation": v, "member": nil})
}

func (p *Plugin) cancelInvitation(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	id, ok := invitationID(w, r)
	if !ok {
		return
	}
	v, err := p.invitation(r.Context(), id)
	if err != nil || v == nil {
		auth.WriteError(w, r, firstErr(err, errInvitationNone))
		return
	}
	if _, ok := p.gate(w, r, c, v.OrganizationID, Permissions{"invitation": {"cancel"}}, errMemberNotFound, errCannotCancel); !ok {
		return
	}
	if err := p.setStatus(r.Context(), v, "canceled"); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, v)
}

func (p *Plugin) getInvitation(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	v, ok := p.recipientInvitation(w, r, c, r.URL.Query().Get("id"), true)
	if !ok {
		return
	}
	ctx := r.Context()
	org, err := p.orgBy(ctx, v.OrganizationID, false)
	if err != nil || org == nil {
		auth.WriteError(w, r, firstErr(err, errOrgNotFound))
		return
	}
	inviter, err := p.membership(ctx, v.OrganizationID, v.InviterID)
	if err != nil || inviter == nil {
		auth.WriteError(w, r, firstErr(err, bad("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION", "Inviter is no longer a member of the organization")))
		return
	}
	writeJSON(w, map[string]any{"id": v.ID, "organizationId": v.OrganizationID, "email": v.Email, "role": v.Role, "teamId": v.TeamID,
		"status": v.Status, "expiresAt": v.ExpiresAt, "createdAt": v.CreatedAt, "inviterId": v.InviterID,
		"organizationName": org.Name, "organizationSlug": org.Slug, "inviterEmail": inviter.User.Email})
}

func (p *Plugin) listInvitations(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	orgID := r.URL.Query().Get("organizationId")
	if orgID == "" {
		orgID = activeOrg(c)
	}
	if orgID == "" {
		auth.WriteError(w, r, httpx.NewError(http.StatusBadRequest, "BAD_REQUEST", "Organization ID is required"))
		return
	}
	me, ok := p.gate(w, r, c, orgID, Permissions{"invitation": {"create"}}, forbidden("FORBIDDEN", msgNotAMember), errCannotList)
	if !ok {
		return
	}
	list, err := p.invitations(r.Context(), `"organizationId" = ?`, me.OrganizationID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	// Only the creator role sees invitations that would grant it.
	out := []*Invitation{}
	for _, v := range list {
		if hasRole(me.Role, creatorRole) || v.Role == nil || !hasRole(*v.Role, creatorRole) {
			out = append(out, v)
		}
	}
	writeJSON(w, out)
}

func (p *Plugin) listUserInvitations(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	if r.URL.Query().Get("email") != "" {
		auth.WriteError(w, r, httpx.NewError(http.StatusBadRequest, "BAD_REQUEST", "User email cannot be passed for client side API calls."))
		return
	}
	if !c.User.EmailVerified {
		auth.WriteError(w, r, forbidden("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION", "Email verification required to view or list invitations for the session email"))
		return
	}
	rows, err := p.db().QueryContext(r.Context(), p.q(`select i."id", i."organizationId", i."email", i."role", i."teamId", i."status", i."expiresAt", i."createdAt", i."inviterId", o."name"
		from "invitation" i join "organization" o on o."id" = i."organizationId" where lower(i."email") = lower(?) and i."status" = 'pending' order by i."createdAt" limit 1000`), c.User.Email)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	out := []map[string]any{}
	for rows.Next() {
		var v Invitation
		var orgName string
		if err := rows.Scan(&v.ID, &v.OrganizationID, &v.Email, &v.Role, &v.TeamID, &v.Status, &v.ExpiresAt, &v.CreatedAt, &v.InviterID, &orgName); err != nil {
			auth.WriteError(w, r, err)
			return
		}
		out = append(out, map[string]any{"id": v.ID, "organizationId": v.OrganizationID, "email": v.Email, "role": v.Role, "teamId": v.TeamID,
			"status": v.Status, "expiresAt": v.ExpiresAt, "createdAt": v.CreatedAt, "inviterId": v.InviterID, "organizationName": orgName})
	}
	if err := rows.Err(); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, out)
}
