// Package admin is Better Auth's admin plugin on our auth core: user management for operators
// (create, list, update, roles, passwords, bans, impersonation, removal, sessions) at
// /api/auth/admin/*, the user columns role, banned, banReason, banExpires and the session
// column impersonatedBy. Paths, bodies, codes and messages are the plugin's (better-auth 1.7),
// so its adminClient works unchanged.
package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/store"
)

// Plugin is the admin plugin.
type Plugin struct {
	AdminUserIDs             []string      // always admins (AUTH_ADMIN_USER_IDS)
	AdminEmails              []string      // always admins once verified (AUTH_ADMIN_EMAILS, lowercase)
	ImpersonationDuration    time.Duration // an impersonation session's lifetime (default 1 hour)
	AllowImpersonatingAdmins bool          // admins may impersonate other admins

	s *auth.Service
}

// New configures the plugin from the configuration.
func New(cfg *config.Config) *Plugin {
	return &Plugin{AdminUserIDs: cfg.AdminUserIDs, AdminEmails: cfg.AdminEmails,
		ImpersonationDuration: cfg.AdminImpersonationDuration, AllowImpersonatingAdmins: cfg.AdminImpersonateAdmins}
}

func (*Plugin) ID() string { return "admin" }

// Register adds the columns, the Fields of user and session answers, the default role, the
// ban check before every new session, and the routes.
func (p *Plugin) Register(s *auth.Service) error {
	p.s = s
	if p.ImpersonationDuration <= 0 {
		p.ImpersonationDuration = time.Hour
	}
	st := s.Store()
	if err := st.Migrate(context.Background(), "admin", nil,
		st.AddColumns(1, "user", userColumns...), st.AddColumns(2, "session", sessionColumns...)); err != nil {
		return err
	}
	s.AddUserFields(carriedUser, userFields)
	s.AddSessionFields(carriedSession, sessionFields)
	s.OnUserCreated(p.setDefaults)
	s.BeforeSession(p.refuseBanned)
	s.HideSessions(func(x auth.SessionJSON) bool { return x.Extra["impersonatedBy"] != nil })
	p.routes()
	return nil
}

func (p *Plugin) routes() {
	s := p.s
	s.Handle("POST /admin/set-role", p.setRole)
	s.Handle("GET /admin/get-user", p.getUser)
	s.Handle("POST /admin/create-user", p.createUser)
	s.Handle("POST /admin/update-user", p.updateUser)
	s.Handle("GET /admin/list-users", p.listUsers)
	s.Handle("POST /admin/list-user-sessions", p.listUserSessions)
	s.Handle("POST /admin/unban-user", p.unbanUser)
	s.Handle("POST /admin/ban-user", p.banUser)
	s.Handle("POST /admin/impersonate-user", p.impersonateUser)
	s.Handle("POST /admin/stop-impersonating", p.stopImpersonating)
	s.Handle("POST /admin/revoke-user-session", p.revokeUserSession)
	s.Handle("POST /admin/revoke-user-sessions", p.revokeUserSessions)
	s.Handle("POST /admin/remove-user", p.removeUser)
	s.Handle("POST /admin/set-user-password", p.setUserPassword)
	s.Handle("POST /admin/has-permission", p.hasPermissionRoute)
}

// userFields are the admin columns as Better Auth answers them in a user.
func userFields(vals map[string]any) (map[string]any, error) {
	f, err := fieldsOf(vals)
	if err != nil {
		return nil, err
	}
	return f.json(), nil
}

// sessionFields is impersonatedBy as Better Auth answers it in a session (null when none).
func sessionFields(vals map[string]any) (map[string]any, error) {
	return map[string]any{"impersonatedBy": vals["impersonatedBy"]}, nil
}

// setDefaults gives a new user the default role (Better Auth's user-create hook) and an
// explicit banned = false for databases whose column has no default.
func (p *Plugin) setDefaults(ctx context.Context, u *store.User) error {
	st := p.s.Store()
	_, err := st.DB().ExecContext(ctx, st.Rebind(`update "user" set "role" = coalesce("role", ?), "banned" = coalesce("banned", ?) where "id" = ?`),
		defaultRole, p.boolArg(false), u.ID)
	return err
}

// refuseBanned runs before every new session: a banned user is refused with BANNED_USER,
// unless the ban has expired, in which case it is lifted.
func (p *Plugin) refuseBanned(ctx context.Context, u *store.User) error {
	f, err := p.columns(ctx, u.ID)
	if err != nil || !f.Banned {
		return err
	}
	if f.BanExpires != nil && f.BanExpires.Before(p.s.Now()) {
		return p.update(ctx, u.ID, map[string]any{"banned": false, "banReason": nil, "banExpires": nil})
	}
	return ErrBanned
}

// requireAdminSession is Better Auth's adminMiddleware: the caller's session read from the
// database (never the cookie cache, so a role change or a revocation counts at once).
func (p *Plugin) requireAdminSession(w http.ResponseWriter, r *http.Request) (*auth.Current, caller, bool) {
	c, ok := p.s.RequireSensitive(w, r)
	if !ok {
		return nil, caller{}, false
	}
	return c, callerOf(c.User), true
}

func callerOf(u auth.UserJSON) caller {
	role, _ := u.Extra["role"].(string)
	return caller{ID: u.ID, Email: u.Email, Role: role, EmailVerified: u.EmailVerified}
}

// allowed answers err (403) and returns false when c lacks the permission.
func (p *Plugin) allowed(w http.ResponseWriter, r *http.Request, c caller, request map[string][]string, err error) bool {
	if p.hasPermission(c, request) {
		return true
	}
	auth.WriteError(w, r, err)
	return false
}
