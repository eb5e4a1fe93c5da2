package admin

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

// adminCookie keeps the admin's own session while they impersonate someone:
// "<admin session token>:<dont_remember value>", signed.
const adminCookie = "admin_session"

var errNoAdminUser = e(http.StatusBadRequest, "", "Failed to find user")

// POST /admin/impersonate-user {userId}: signs the admin's browser in as the user with a
// session marked impersonatedBy that lasts ImpersonationDuration (1 hour) and is not
// remembered; the admin's own session waits in the admin_session cookie. Admins cannot be
// impersonated unless AllowImpersonatingAdmins.
func (p *Plugin) impersonateUser(w http.ResponseWriter, r *http.Request) {
	var b userIDBody
	if !auth.ReadJSON(w, r, &b, b.check) {
		return
	}
	cur, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "impersonate"), errNotAllowedImpersonate) {
		return
	}
	ctx := r.Context()
	target, err := p.s.Store().UserByID(ctx, b.UserID.Value)
	if errors.Is(err, store.ErrNotFound) {
		auth.WriteError(w, r, errUserNotFound)
		return
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	tf, err := p.columns(ctx, target.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	tc := caller{ID: target.ID, Email: target.Email, EmailVerified: target.EmailVerified}
	if tf.Role != nil {
		tc.Role = *tf.Role
	}
	if p.isAdmin(tc) && !p.AllowImpersonatingAdmins && !p.hasPermission(c, perm("user", "impersonate-admins")) {
		auth.WriteError(w, r, errCannotImpersonateAdm)
		return
	}
	x, err := p.impersonationSession(r, target, c.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	sess, user, err := p.s.Answer(ctx, x, target)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	remember := ""
	if p.s.DontRemember(r) {
		remember = "true"
	}
	p.s.SetSignedCookie(w, p.s.CookieName(adminCookie), cur.Session.Token+":"+remember, p.s.Config().AuthSessionExpiresIn)
	p.s.SetSessionCookies(w, r, sess, user, true)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"session": sess, "user": user})
}

// impersonationSession creates the user's session (the before-session hooks run: a banned user
// cannot be impersonated), then marks it and shortens it; if that fails it is removed again.
func (p *Plugin) impersonationSession(r *http.Request, target *store.User, adminID string) (*store.Session, error) {
	ctx := r.Context()
	x, err := p.s.CreateSession(ctx, r, target, true)
	if err != nil {
		return nil, err
	}
	x.ExpiresAt = p.s.Now().Add(p.ImpersonationDuration)
	st := p.s.Store()
	_, err = st.DB().ExecContext(ctx, st.Rebind(`update "session" set "impersonatedBy" = ?, "expiresAt" = ? where "id" = ?`),
		adminID, st.Time(x.ExpiresAt), x.ID)
	if err != nil {
		if rerr := p.s.RevokeSession(ctx, x.Token); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return nil, fmt.Errorf("admin: mark impersonation session: %w", err)
	}
	return x, nil
}

// POST /admin/stop-impersonating: ends the impersonation session and signs the browser back
// in with the admin's own session from the admin_session cookie.
func (p *Plugin) stopImpersonating(w http.ResponseWriter, r *http.Request) {
	cur, ok := p.s.RequireUser(w, r)
	if !ok {
		return
	}
	by, _ := cur.Session.Extra["impersonatedBy"].(string)
	if by == "" {
		auth.WriteError(w, r, errNotImpersonating)
		return
	}
	ctx := r.Context()
	if _, err := p.s.Store().UserByID(ctx, by); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = errNoAdminUser
		}
		auth.WriteError(w, r, err)
		return
	}
	token, remember, _ := strings.Cut(p.s.SignedCookie(r, p.s.CookieName(adminCookie)), ":")
	if token == "" {
		auth.WriteError(w, r, errNoAdminSession)
		return
	}
	adminSess, adminUser, err := p.s.Store().SessionAndUser(ctx, token)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (adminSess.UserID != by || !adminSess.ExpiresAt.After(p.s.Now()))) {
		err = errNoAdminSession
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if err := p.s.RevokeSession(ctx, cur.Session.Token); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	sess, user, err := p.s.Answer(ctx, adminSess, adminUser)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	p.s.SetSessionCookies(w, r, sess, user, remember != "")
	p.s.ExpireCookie(w, p.s.CookieName(adminCookie))
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"session": sess, "user": user})
}
