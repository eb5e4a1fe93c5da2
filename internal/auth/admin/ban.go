package admin

import (
	"math"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/sellertrends/sellertrends/internal/auth"
)

// maxBan bounds banExpiresIn (seconds) so the expiry is a real date: 100 years.
const maxBan = 100 * 365 * 24 * 3600

// POST /admin/ban-user {userId, banReason?, banExpiresIn?}: bans the user (reason "No reason"
// by default; for banExpiresIn seconds, or for ever) and ends every session they have.
func (p *Plugin) banUser(w http.ResponseWriter, r *http.Request) {
	var b struct {
		UserID       id       `json:"userId"`
		BanReason    *string  `json:"banReason"`
		BanExpiresIn *float64 `json:"banExpiresIn"`
	}
	var seconds float64
	check := func() error {
		var f fields
		f.required("userId", b.UserID.Set)
		if b.BanReason != nil && utf8.RuneCountInString(*b.BanReason) > maxField {
			f.add("[body.banReason] Too big: expected string to have <=%d characters", maxField)
		}
		if b.BanExpiresIn != nil {
			n := *b.BanExpiresIn
			if math.IsNaN(n) || math.Abs(n) > maxBan {
				f.add("[body.banExpiresIn] Invalid input: expected a number of seconds up to %d", maxBan)
			}
			seconds = n
		}
		return f.err()
	}
	if !auth.ReadJSON(w, r, &b, check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "ban"), errNotAllowedBan) {
		return
	}
	userID := b.UserID.Value
	if !p.exists(w, r, userID) {
		return
	}
	if userID == c.ID {
		auth.WriteError(w, r, errCannotBanYourself)
		return
	}
	reason := "No reason"
	if b.BanReason != nil && *b.BanReason != "" {
		reason = *b.BanReason
	}
	set := map[string]any{"banned": true, "banReason": reason, "banExpires": nil}
	if b.BanExpiresIn != nil && seconds != 0 {
		set["banExpires"] = p.s.Now().Add(time.Duration(seconds * float64(time.Second)))
	}
	ctx := r.Context()
	if err := p.update(ctx, userID, set); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if err := p.s.RevokeUserSessions(ctx, userID, ""); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	p.writeUser(w, r, userID, true)
}

// POST /admin/unban-user {userId}: lifts the ban.
func (p *Plugin) unbanUser(w http.ResponseWriter, r *http.Request) {
	var b userIDBody
	if !auth.ReadJSON(w, r, &b, b.check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "ban"), errNotAllowedBan) {
		return
	}
	if !p.exists(w, r, b.UserID.Value) {
		return
	}
	if err := p.update(r.Context(), b.UserID.Value, map[string]any{"banned": false, "banReason": nil, "banExpires": nil}); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	p.writeUser(w, r, b.UserID.Value, true)
}
