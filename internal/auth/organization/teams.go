package organization

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

var (
	errTeamNotFound     = bad("TEAM_NOT_FOUND", "Team not found")
	errCannotCreateTeam = forbidden("YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION", "You are not allowed to create teams in this organization")
	errCannotDeleteTeam = forbidden("YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION", "You are not allowed to delete teams in this organization")
	errCannotUpdateTeam = forbidden("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM", "You are not allowed to update this team")
	errCannotAccessOrg  = forbidden("YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION", "You are not allowed to access this organization as an owner")
	errNotTeamMember    = forbidden("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", "User is not a member of the team")
	errNotTeamMemberBad = bad("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", "User is not a member of the team")
	errNoActiveTeam     = bad("YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM", "You do not have an active team")
	errCannotAddTeamMem = forbidden("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER", "You are not allowed to create a new member")
	errCannotRemTeamMem = forbidden("YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER", "You are not allowed to remove a team member")
)

// Team and TeamMember are the plugin's team records.
type Team struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	OrganizationID string  `json:"organizationId"`
	CreatedAt      dbTime  `json:"createdAt"`
	UpdatedAt      *dbTime `json:"updatedAt"` // null for an organization's default team
}

type TeamMember struct {
	ID        string `json:"id"`
	TeamID    string `json:"teamId"`
	UserID    string `json:"userId"`
	CreatedAt dbTime `json:"createdAt"`
}

const teamCols = `"id", "name", "organizationId", "createdAt", "updatedAt"`

func (p *Plugin) teams(ctx context.Context, cond string, args ...any) ([]Team, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select `+teamCols+` from "team" where `+cond+` order by "createdAt", "id" limit 1000`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Team{}
	for rows.Next() {
		var t Team
		var upd dbTime
		if err := rows.Scan(&t.ID, &t.Name, &t.OrganizationID, &t.CreatedAt, &upd); err != nil {
			return nil, err
		}
		if !upd.IsZero() {
			t.UpdatedAt = &upd
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// team finds a team of orgID; nil when it does not exist there.
func (p *Plugin) team(ctx context.Context, orgID, id string) (*Team, error) {
	ts, err := p.teams(ctx, `"id" = ? and "organizationId" = ?`, id, orgID)
	if err != nil || len(ts) == 0 {
		return nil, err
	}
	return &ts[0], nil
}

func (p *Plugin) inTeam(ctx context.Context, teamID, userID string) (bool, error) {
	var n int
	err := p.db().QueryRowContext(ctx, p.q(`select count(*) from "teamMember" where "teamId" = ? and "userId" = ?`), teamID, userID).Scan(&n)
	return n > 0, err
}

func teamName(name *string) error {
	var f auth.Fields
	f.Required("name", name)
	if name != nil && *name == "" {
		f = append(f, "[body.name] Too small: expected string to have >=1 characters")
	}
	return f.Err()
}

func (p *Plugin) createTeam(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		Name           *string `json:"name"`
		OrganizationID string  `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return teamName(b.Name) }) {
		return
	}
	m, ok := p.gate(w, r, c, b.OrganizationID, Permissions{"team": {"create"}}, errCannotInvite, errCannotCreateTeam)
	if !ok {
		return
	}
	now := p.now()
	t := Team{ID: newID(), Name: *b.Name, OrganizationID: m.OrganizationID, CreatedAt: dbTime{now}, UpdatedAt: &dbTime{now}}
	if _, err := p.db().ExecContext(r.Context(), p.q(`insert into "team" (`+teamCols+`) values (?, ?, ?, ?, ?)`), t.ID, t.Name, t.OrganizationID, p.st.Time(now), p.st.Time(now)); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, t)
}

func (p *Plugin) updateTeam(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		TeamID *string `json:"teamId"`
		Data   *struct {
			Name *string `json:"name"`
		} `json:"data"`
		OrganizationID string `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error {
		if b.Data == nil {
			return httpx.BadRequest("[body.data] Invalid input: expected object, received undefined")
		}
		if b.Data.Name != nil {
			return teamName(b.Data.Name)
		}
		return auth.Required("teamId", b.TeamID)
	}) {
		return
	}
	if b.TeamID == nil {
		auth.WriteError(w, r, auth.Required("teamId", nil))
		return
	}
	m, ok := p.gate(w, r, c, b.OrganizationID, Permissions{"team": {"update"}}, errCannotUpdateTeam, errCannotUpdateTeam)
	if !ok {
		return
	}
	ctx := r.Context()
	t, err := p.team(ctx, m.OrganizationID, *b.TeamID)
	if err != nil || t == nil {
		auth.WriteError(w, r, firstErr(err, errTeamNotFound))
		return
	}
	if b.Data.Name != nil {
		now := p.now()
		if _, err := p.db().ExecContext(ctx, p.q(`update "team" set "name" = ?, "updatedAt" = ? where "id" = ?`), *b.Data.Name, p.st.Time(now), t.ID); err != nil {
			auth.WriteError(w, r, err)
			return
		}
		t.Name, t.UpdatedAt = *b.Data.Name, &dbTime{now}
	}
	writeJSON(w, t)
}

func (p *Plugin) removeTeam(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		TeamID         *string `json:"teamId"`
		OrganizationID string  `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("teamId", b.TeamID) }) {
		return
	}
	m, ok := p.gate(w, r, c, b.OrganizationID, Permissions{"team": {"delete"}}, errCannotDeleteTeam, errCannotDeleteTeam)
	if !ok {
		return
	}
	ctx := r.Context()
	t, err := p.team(ctx, m.OrganizationID, *b.TeamID)
	if err != nil || t == nil {
		auth.WriteError(w, r, firstErr(err, errTeamNotFound))
		return
	}
	// The team's own watchlist goes with it (items first: SQLite may not enforce cascades).
	steps := append(withArg(t.ID, `delete from "teamMember" where "teamId" = ?`, `update "session" set "activeTeamId" = null where "activeTeamId" = ?`, `delete from "team" where "id" = ?`),
		withArg(store.TeamListID(t.ID), `delete from "watchlistItem" where "workspaceId" = ?`, `delete from "workspace" where "id" = ?`)...)
	if err := p.deleteNamedInSessions(ctx, `"activeTeamId" = ?`, t.ID, steps); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]string{"message": "Team removed successfully."})
}

func (p *Plugin) listTeams(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	m, ok := p.gate(w, r, c, r.URL.Query().Get("organizationId"), nil, errCannotAccessOrg, nil)
	if !ok {
		return
	}
	ts, err := p.teams(r.Context(), `"organizationId" = ?`, m.OrganizationID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, ts)
}

func (p *Plugin) setActiveTeam(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		TeamID *string `json:"teamId"`
	}
	if !auth.ReadJSON(w, r, &b, nil) {
		return
	}
	ctx := r.Context()
	current, _ := c.Session.Extra["activeTeamId"].(string)
	if b.TeamID == nil {
		if current != "" {
			if err := p.activateTeam(w, r, c, nil); err != nil {
				auth.WriteError(w, r, err)
				return
			}
		}
		writeJSON(w, nil)
		return
	}
	org := activeOrg(c)
	if org == "" {
		auth.WriteError(w, r, errNoActiveOrg)
		return
	}
	t, err := p.team(ctx, org, *b.TeamID)
	if err != nil || t == nil {
		auth.WriteError(w, r, firstErr(err, errTeamNotFound))
		return
	}
	if in, err := p.inTeam(ctx, t.ID, c.User.ID); err != nil || !in {
		auth.WriteError(w, r, firstErr(err, errNotTeamMember))
		return
	}
	if err := p.activateTeam(w, r, c, t.ID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, t)
}

func (p *Plugin) activateTeam(w http.ResponseWriter, r *http.Request, c *auth.Current, teamID any) error {
	if _, err := p.db().ExecContext(r.Context(), p.q(`update "session" set "activeTeamId" = ? where "id" = ?`), teamID, c.Session.ID); err != nil {
		return err
	}
	if err := p.st.InvalidateUser(r.Context(), c.User.ID); err != nil {
		return err
	}
	if c.Session.Extra == nil {
		c.Session.Extra = map[string]any{}
	}
	c.Session.Extra["activeTeamId"] = teamID
	if !c.Bearer {
		p.auth.SetSessionCookies(w, r, c.Session, c.User, c.DontRemember)
	}
	return nil
}

// listUserTeams lists the caller's teams, in the given organization or across all of theirs.
func (p *Plugin) listUserTeams(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	if uid := q.Get("userId"); uid != "" && uid != c.User.ID {
		// Listing another user's teams needs member:update in the organization.
		m, ok := p.gate(w, r, c, q.Get("organizationId"), Permissions{"member": {"update"}}, errNotAMember, errCannotUpdateMem)
		if !ok {
			return
		}
		if other, err := p.membership(r.Context(), m.OrganizationID, uid); err != nil || other == nil {
			auth.WriteError(w, r, firstErr(err, errNotMemberBad))
			return
		}
		p.writeUserTeams(w, r, uid, m.OrganizationID)
		return
	}
	orgID := q.Get("organizationId")
	if orgID != "" {
		if _, ok := p.gate(w, r, c, orgID, nil, errNotAMember, nil); !ok {
			return
		}
	}
	p.writeUserTeams(w, r, c.User.ID, orgID)
}

func (p *Plugin) writeUserTeams(w http.ResponseWriter, r *http.Request, userID, orgID string) {
	cond := `"id" in (select tm."teamId" from "teamMember" tm where tm."userId" = ?) and "organizationId" in (select "organizationId" from "member" where "userId" = ?)`
	args := []any{userID, userID}
	if orgID != "" {
		cond += ` and "organizationId" = ?`
		args = append(args, orgID)
	}
	ts, err := p.teams(r.Context(), cond, args...)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, ts)
}

func (p *Plugin) listTeamMembers(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	teamID := r.URL.Query().Get("teamId")
	if teamID == "" {
		teamID, _ = c.Session.Extra["activeTeamId"].(string)
	}
	if teamID == "" {
		auth.WriteError(w, r, errNoActiveTeam)
		return
	}
	ctx := r.Context()
	var orgID string
	err := p.db().QueryRowContext(ctx, p.q(`select "organizationId" from "team" where "id" = ?`), teamID).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		err = errTeamNotFound
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if in, err := p.inTeam(ctx, teamID, c.User.ID); err != nil || !in {
		auth.WriteError(w, r, firstErr(err, errNotTeamMemberBad))
		return
	}
	rows, err := p.db().QueryContext(ctx, p.q(`select "id", "teamId", "userId", "createdAt" from "teamMember" where "teamId" = ? order by "createdAt", "id" limit 1000`), teamID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	out := []TeamMember{}
	for rows.Next() {
		var tm TeamMember
		if err := rows.Scan(&tm.ID, &tm.TeamID, &tm.UserID, &tm.CreatedAt); err != nil {
			auth.WriteError(w, r, err)
			return
		}
		out = append(out, tm)
	}
	writeJSON(w, out)
}

type teamMemberBody struct {
	TeamID         *string `json:"teamId"`
	UserID         *string `json:"userId"`
	OrganizationID string  `json:"organizationId"`
}

// teamMemberTarget checks the caller may change team membership and the target is a member
// of the organization, returning the team.
func (p *Plugin) teamMemberTarget(w http.ResponseWriter, r *http.Request, b *teamMemberBody, denied error) (*Team, bool) {
	c, ok := p.caller(w, r)
	if !ok {
		return nil, false
	}
	if !auth.ReadJSON(w, r, b, func() error {
		var f auth.Fields
		f.Required("teamId", b.TeamID)
		f.Required("userId", b.UserID)
		return f.Err()
	}) {
		return nil, false
	}
	m, ok := p.gate(w, r, c, b.OrganizationID, Permissions{"member": {"update"}}, errNotMemberBad, denied)
	if !ok {
		return nil, false
	}
	ctx := r.Context()
	if other, err := p.membership(ctx, m.OrganizationID, *b.UserID); err != nil || other == nil {
		auth.WriteError(w, r, firstErr(err, errNotMemberBad))
		return nil, false
	}
	t, err := p.team(ctx, m.OrganizationID, strings.TrimSpace(*b.TeamID))
	if err != nil || t == nil {
		auth.WriteError(w, r, firstErr(err, errTeamNotFound))
		return nil, false
	}
	return t, true
}

func (p *Plugin) addTeamMember(w http.ResponseWriter, r *http.Request) {
	var b teamMemberBody
	t, ok := p.teamMemberTarget(w, r, &b, errCannotAddTeamMem)
	if !ok {
		return
	}
	ctx := r.Context()
	in, err := p.inTeam(ctx, t.ID, *b.UserID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	now := p.now()
	tm := TeamMember{ID: newID(), TeamID: t.ID, UserID: *b.UserID, CreatedAt: dbTime{now}}
	if in {
		err = p.db().QueryRowContext(ctx, p.q(`select "id", "createdAt" from "teamMember" where "teamId" = ? and "userId" = ?`), t.ID, tm.UserID).Scan(&tm.ID, &tm.CreatedAt)
	} else {
		_, err = p.db().ExecContext(ctx, p.q(`insert into "teamMember" ("id", "teamId", "userId", "createdAt") values (?, ?, ?, ?)`), tm.ID, tm.TeamID, tm.UserID, p.st.Time(now))
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, tm)
}

func (p *Plugin) removeTeamMember(w http.ResponseWriter, r *http.Request) {
	var b teamMemberBody
	t, ok := p.teamMemberTarget(w, r, &b, errCannotRemTeamMem)
	if !ok {
		return
	}
	if _, err := p.db().ExecContext(r.Context(), p.q(`delete from "teamMember" where "teamId" = ? and "userId" = ?`), t.ID, *b.UserID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, map[string]string{"message": "Team member removed successfully."})
}

// teamWithCount is a team as get-full-organization lists it.
type teamWithCount struct {
	Team
	MemberCount int `json:"memberCount"`
}

func (p *Plugin) teamsWithCounts(ctx context.Context, orgID string) ([]teamWithCount, error) {
	ts, err := p.teams(ctx, `"organizationId" = ?`, orgID)
	if err != nil {
		return nil, err
	}
	out := make([]teamWithCount, 0, len(ts))
	for _, t := range ts {
		tc := teamWithCount{Team: t}
		if err := p.db().QueryRowContext(ctx, p.q(`select count(*) from "teamMember" where "teamId" = ?`), t.ID).Scan(&tc.MemberCount); err != nil {
			return nil, err
		}
		out = append(out, tc)
	}
	return out, nil
}
