package admin

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
)

var errAdminsOnly = e(http.StatusForbidden, "FORBIDDEN", "Only admins can see this")

// RequireAdmin serves next only to admins (the admin role, or AUTH_ADMIN_USER_IDS /
// AUTH_ADMIN_EMAILS), their session read from the database as the plugin's own routes do: for
// operator pages outside the plugin's protocol (the admin page's figures). Others get 401
// without a session and 403 with one.
func (p *Plugin) RequireAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, c, ok := p.requireAdminSession(w, r)
		if !ok {
			return
		}
		if !p.isAdmin(c) {
			auth.WriteError(w, r, errAdminsOnly)
			return
		}
		next.ServeHTTP(w, r)
	})
}
