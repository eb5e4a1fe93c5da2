package admin

import (
	"encoding/json"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// POST /admin/has-permission {permissions}: whether the caller (never someone else over HTTP,
// as Better Auth) holds every requested action: {"error": null, "success": bool}. The legacy
// singular "permission" is refused with Better Auth's message.
func (p *Plugin) hasPermissionRoute(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Permission  json.RawMessage     `json:"permission"`
		Permissions map[string][]string `json:"permissions"`
		UserID      id                  `json:"userId"`
		Role        *string             `json:"role"`
	}
	check := func() error {
		if (b.Permission == nil) == (b.Permissions == nil) { // zod's xor: exactly one
			return httpx.BadRequest("[body] Invalid input")
		}
		return nil
	}
	if !auth.ReadJSON(w, r, &b, check) {
		return
	}
	if b.Permissions == nil {
		auth.WriteError(w, r, errNoPermissionsGiven)
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok {
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"error": nil, "success": p.hasPermission(c, b.Permissions)})
}
