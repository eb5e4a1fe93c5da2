package admin

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// POST /admin/list-user-sessions {userId}: the user's unexpired sessions, oldest first.
func (p *Plugin) listUserSessions(w http.ResponseWriter, r *http.Request) {
	var b userIDBody
	if !auth.ReadJSON(w, r, &b, b.check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("session", "list"), errNotAllowedListSess) {
		return
	}
	all, err := p.s.Store().SessionsByUser(r.Context(), b.UserID.Value)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	out := make([]auth.SessionJSON, 0, len(all))
	for _, x := range all {
		if !x.ExpiresAt.After(p.s.Now()) {
			continue
		}
		sess, err := p.s.SessionAnswer(r.Context(), x)
		if err != nil {
			auth.WriteError(w, r, err)
			return
		}
		out = append(out, sess)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

// POST /admin/revoke-user-session {sessionToken}: ends one session.
func (p *Plugin) revokeUserSession(w http.ResponseWriter, r *http.Request) {
	var b struct {
		SessionToken *string `json:"sessionToken"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("sessionToken", b.SessionToken) }) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("session", "revoke"), errNotAllowedRevoke) {
		return
	}
	if err := p.s.RevokeSession(r.Context(), *b.SessionToken); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
}

// POST /admin/revoke-user-sessions {userId}: ends every session of the user.
func (p *Plugin) revokeUserSessions(w http.ResponseWriter, r *http.Request) {
	var b userIDBody
	if !auth.ReadJSON(w, r, &b, b.check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("session", "revoke"), errNotAllowedRevoke) {
		return
	}
	if err := p.s.RevokeUserSessions(r.Context(), b.UserID.Value, ""); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
}
