// Package organization is Better Auth's organization plugin on our server: organizations,
// members and roles under /api/auth/organization/*, with the plugin's tables, error codes and
// the session's activeOrganizationId / activeTeamId.
package organization

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

//go:embed migrations
var migrations embed.FS

// The plugin's defaults: membershipLimit 100 (also get-full-organization's members limit).
const membershipLimit = 100

// Plugin is the organization plugin.
type Plugin struct {
	auth      *auth.Service
	st        *store.Store
	plans     PlanFunc                                      // nil: no seat limit
	onDeleted func(ctx context.Context, orgID string) error // nil: nothing to clean up
}

// New returns the plugin.
func New() *Plugin { return &Plugin{} }

func (*Plugin) ID() string { return "organization" }

// Register creates the tables and mounts the routes.
func (p *Plugin) Register(s *auth.Service) error {
	p.auth, p.st = s, s.Store()
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	ctx := context.Background()
	if err := p.st.Migrate(ctx, "organization", sub); err != nil {
		return err
	}
	if err := p.sessionColumns(ctx); err != nil {
		return err
	}
	s.AddSessionFields([]store.Carried{{Name: "activeOrganizationId"}, {Name: "activeTeamId"}}, sessionFields)
	// An organization's members are its workspace's members: alert digests go to them too.
	p.st.AddWorkspaceMembers(`select "organizationId", "userId" from "member"`)
	// A team's watchlist (store.TeamListID) belongs to the team: its digests go to the team's
	// members who are still members of the organization, and to nobody else.
	p.st.AddWorkspaceMembers(`select 'team-' || tm."teamId", tm."userId" from "teamMember" tm join "team" t on t."id" = tm."teamId"
		join "member" om on om."organizationId" = t."organizationId" and om."userId" = tm."userId"`)
	routes := map[string]http.HandlerFunc{
		"POST /organization/create":                p.create,
		"POST /organization/update":                p.update,
		"POST /organization/delete":                p.delete,
		"POST /organization/check-slug":            p.checkSlug,
		"POST /organization/set-active":            p.setActive,
		"GET /organization/list":                   p.list,
		"GET /organization/get-full-organization":  p.getFull,
		"GET /organization/list-members":           p.listMembers,
		"GET /organization/get-active-member":      p.getActiveMember,
		"GET /organization/get-active-member-role": p.getActiveMemberRole,
		"POST /organization/remove-member":         p.removeMember,
		"POST /organization/update-member-role":    p.updateMemberRole,
		"POST /organization/leave":                 p.leave,
		"POST /organization/has-permission":        p.hasPermission,
		"POST /organization/invite-member":         p.inviteMember,
		"GET /organization/get-invitation":         p.getInvitation,
		"GET /organization/list-invitations":       p.listInvitations,
		"GET /organization/list-user-invitations":  p.listUserInvitations,
		"POST /organization/accept-invitation":     p.acceptInvitation,
		"POST /organization/reject-invitation":     p.rejectInvitation,
		"POST /organization/create-team":           p.createTeam,
		"POST /organization/update-team":           p.updateTeam,
		"POST /organization/remove-team":           p.removeTeam,
		"GET /organization/list-teams":             p.listTeams,
		"POST /organization/set-active-team":       p.setActiveTeam,
		"GET /organization/list-user-teams":        p.listUserTeams,
		"GET /organization/list-team-members":      p.listTeamMembers,
		"POST /organization/add-team-member":       p.addTeamMember,
		"POST /organization/remove-team-member":    p.removeTeamMember,
		"POST /organization/create-role":           p.createRole,
		"POST /organization/update-role":           p.updateRole,
		"POST /organization/delete-role":           p.deleteRole,
		"GET /organization/list-roles":             p.listRoles,
		"GET /organization/get-role":               p.getRole,
		"POST /organization/cancel-invitation":     p.cancelInvitation,
	}
	for pattern, h := range routes {
		s.Handle(pattern, h)
	}
	return nil
}

// sessionColumns adds the plugin's session columns unless a Better Auth database has them.
func (p *Plugin) sessionColumns(ctx context.Context) error {
	for _, col := range []string{"activeOrganizationId", "activeTeamId"} {
		if p.st.Postgres() {
			if _, err := p.db().ExecContext(ctx, `alter table "session" add column if not exists "`+col+`" text`); err != nil {
				return fmt.Errorf("organization: session column: %w", err)
			}
			continue
		}
		var n int
		if err := p.db().QueryRowContext(ctx, `select count(*) from pragma_table_info('session') where name = ?`, col).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := p.db().ExecContext(ctx, `alter table "session" add column "`+col+`" text`); err != nil {
				return fmt.Errorf("organization: session column: %w", err)
			}
		}
	}
	return nil
}

// sessionFields puts activeOrganizationId and activeTeamId on every session answer.
// sessionFields are the active organization and team as Better Auth answers them in a session.
func sessionFields(vals map[string]any) (map[string]any, error) {
	return map[string]any{"activeOrganizationId": vals["activeOrganizationId"], "activeTeamId": vals["activeTeamId"]}, nil
}

func (p *Plugin) db() *sql.DB           { return p.st.DB() }
func (p *Plugin) q(query string) string { return p.st.Rebind(query) }
func (p *Plugin) now() time.Time        { return p.auth.Now().UTC() }

// caller reads the session from the database (active organization included).
func (p *Plugin) caller(w http.ResponseWriter, r *http.Request) (*auth.Current, bool) {
	return p.auth.RequireSensitive(w, r)
}

func activeOrg(c *auth.Current) string {
	v, _ := c.Session.Extra["activeOrganizationId"].(string)
	return v
}

func writeJSON(w http.ResponseWriter, v any) { httpx.WriteJSON(w, http.StatusOK, v) }

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newID is 32 characters of [a-zA-Z0-9], as Better Auth's generateId.
func newID() string {
	out := make([]byte, 0, 32)
	buf := make([]byte, 64)
	for len(out) < 32 {
		if _, err := rand.Read(buf); err != nil {
			panic(err)
		}
		for _, b := range buf {
			if b < 248 && len(out) < 32 {
				out = append(out, alnum[b%62])
			}
		}
	}
	return string(out)
}

// dbTime scans a date column whichever way the driver hands it over.
type dbTime struct{ time.Time }

func (t *dbTime) Scan(v any) error {
	switch x := v.(type) {
	case time.Time:
		t.Time = x.UTC()
	case string:
		return t.parse(x)
	case []byte:
		return t.parse(string(x))
	case int64:
		t.Time = time.UnixMilli(x).UTC()
	case nil:
		t.Time = time.Time{}
	default:
		return fmt.Errorf("organization: cannot scan %T into a time", v)
	}
	return nil
}

func (t *dbTime) parse(s string) error {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05"} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v.UTC()
			return nil
		}
	}
	return fmt.Errorf("organization: unrecognised time %q", s)
}

func (t dbTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.UTC().Format("2006-01-02T15:04:05.000Z") + `"`), nil
}
