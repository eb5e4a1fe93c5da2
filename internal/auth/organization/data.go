package organization

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
)

// Organization and Member are the plugin's records as its endpoints answer them.
type Organization struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Slug      string          `json:"slug"`
	Logo      *string         `json:"logo"`
	CreatedAt dbTime          `json:"createdAt"`
	Metadata  json.RawMessage `json:"metadata"`
}

type Member struct {
	ID             string      `json:"id"`
	OrganizationID string      `json:"organizationId"`
	UserID         string      `json:"userId"`
	Role           string      `json:"role"`
	CreatedAt      dbTime      `json:"createdAt"`
	User           *MemberUser `json:"user,omitempty"`
}

type MemberUser struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Email string  `json:"email"`
	Image *string `json:"image"`
}

const orgCols = `"id", "name", "slug", "logo", "createdAt", "metadata"`

func scanOrg(row interface{ Scan(...any) error }) (*Organization, error) {
	var o Organization
	var meta sql.NullString
	if err := row.Scan(&o.ID, &o.Name, &o.Slug, &o.Logo, &o.CreatedAt, &meta); err != nil {
		return nil, err
	}
	o.Metadata = json.RawMessage("null")
	if meta.Valid && json.Valid([]byte(meta.String)) {
		o.Metadata = json.RawMessage(meta.String)
	}
	return &o, nil
}

// orgBy finds an organization by id, or by slug when bySlug; nil when there is none.
func (p *Plugin) orgBy(ctx context.Context, key string, bySlug bool) (*Organization, error) {
	col := `"id"`
	if bySlug {
		col = `"slug"`
	}
	o, err := scanOrg(p.db().QueryRowContext(ctx, p.q(`select `+orgCols+` from "organization" where `+col+` = ?`), key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return o, err
}

const memberCols = `m."id", m."organizationId", m."userId", m."role", m."createdAt", u."id", u."name", u."email", u."image"`

func scanMember(row interface{ Scan(...any) error }) (*Member, error) {
	var m Member
	var u MemberUser
	if err := row.Scan(&m.ID, &m.OrganizationID, &m.UserID, &m.Role, &m.CreatedAt, &u.ID, &u.Name, &u.Email, &u.Image); err != nil {
		return nil, err
	}
	m.User = &u
	return &m, nil
}

// memberWhere finds one member (with its user) by a condition on m or u; nil when none.
func (p *Plugin) memberWhere(ctx context.Context, cond string, args ...any) (*Member, error) {
	m, err := scanMember(p.db().QueryRowContext(ctx, p.q(`select `+memberCols+` from "member" m join "user" u on u."id" = m."userId" where `+cond), args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return m, err
}

func (p *Plugin) membership(ctx context.Context, orgID, userID string) (*Member, error) {
	return p.memberWhere(ctx, `m."organizationId" = ? and m."userId" = ?`, orgID, userID)
}

func (p *Plugin) members(ctx context.Context, orgID string, limit, offset int) ([]Member, int, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select `+memberCols+` from "member" m join "user" u on u."id" = m."userId"
		where m."organizationId" = ? order by m."createdAt", m."id" limit ? offset ?`), orgID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		m, err := scanMember(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, *m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	var total int
	err = p.db().QueryRowContext(ctx, p.q(`select count(*) from "member" where "organizationId" = ?`), orgID).Scan(&total)
	return out, total, err
}

// owners counts the members holding the creator role.
func (p *Plugin) owners(ctx context.Context, orgID string) (int, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select "role" from "member" where "organizationId" = ?`), orgID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var role string
		if err := rows.Scan(&role); err != nil {
			return 0, err
		}
		if hasRole(role, creatorRole) {
			n++
		}
	}
	return n, rows.Err()
}

// setActiveOrg makes orgID (nil: none) the active organization of the session of userID.
func (p *Plugin) setActiveOrg(ctx context.Context, sessionID, userID string, orgID any) error {
	_, err := p.db().ExecContext(ctx, p.q(`update "session" set "activeOrganizationId" = ?, "activeTeamId" = null where "id" = ?`), orgID, sessionID)
	if err != nil {
		return err
	}
	return p.st.InvalidateUser(ctx, userID)
}

// step is one statement with its one argument.
type step struct {
	query string
	arg   any
}

func withArg(arg any, queries ...string) []step {
	out := make([]step, len(queries))
	for i, q := range queries {
		out[i] = step{q, arg}
	}
	return out
}

// deleteNamedInSessions runs steps in one transaction, removing something sessions may name as
// active (sessionsWhere, with arg, selects those sessions), then drops their owners' cached
// sessions (Redis), which named it.
func (p *Plugin) deleteNamedInSessions(ctx context.Context, sessionsWhere string, arg any, steps []step) error {
	owners, err := p.st.SessionOwners(ctx, p.q(sessionsWhere), arg)
	if err != nil {
		return err
	}
	tx, err := p.db().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, p.q(s.query), s.arg); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return p.st.InvalidateUsers(ctx, owners)
}
