package device

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
)

// POST /device/code {client_id, scope?, user_id?} (JSON or form): a device code for the device
// to poll with and a user code for the person to type at verification_uri.
func (p *Plugin) code(w http.ResponseWriter, r *http.Request) {
	ps, err := readParams(w, r, "client_id", "user_id", "scope")
	if err == nil {
		err = ps.required("client_id")
	}
	if err != nil {
		fail(w, r, asInvalidRequest(err), false)
		return
	}
	for _, n := range []string{"client_id", "user_id", "scope"} {
		if v := ps[n]; v != nil && *v == "" {
			ps[n] = nil // an empty field counts as absent
		}
	}
	if ps["client_id"] == nil {
		fail(w, r, oerr(http.StatusBadRequest, "invalid_request", "client_id is required"), true)
		return
	}
	ctx := r.Context()
	now := p.s.Now()
	if err := p.records.sweep(ctx, now); err != nil {
		slog.Error("device: sweeping expired codes", "error", err)
	}
	interval := p.Interval.Milliseconds()
	for range 3 { // a unique-index collision (astronomically rare) draws new codes
		x := &record{ID: auth.NewID(), DeviceCode: auth.RandomString(p.CodeLength), UserCode: newUserCode(p.UserCodeLength),
			UserID: ps["user_id"], ExpiresAt: now.Add(p.ExpiresIn), Status: pending, PollingInterval: &interval,
			ClientID: ps["client_id"], Scope: ps["scope"]}
		if err := p.records.create(ctx, x); err != nil {
			if isUnique(err) {
				continue
			}
			auth.WriteError(w, r, err)
			return
		}
		uri := p.s.Config().BaseURL.String() + "/device"
		writeJSON(w, http.StatusOK, map[string]any{
			"device_code": x.DeviceCode, "user_code": x.UserCode,
			"verification_uri": uri, "verification_uri_complete": uri + "?user_code=" + url.QueryEscape(x.UserCode),
			"expires_in": int(p.ExpiresIn.Seconds()), "interval": int(p.Interval.Seconds()),
		}, true)
		return
	}
	fail(w, r, oerr(http.StatusInternalServerError, "server_error", "Failed to generate a unique device code"), true)
}

func isUnique(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "unique") || strings.Contains(s, "duplicate key")
}
