package admin

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/store"
)

// POST /admin/update-user {userId, data}: changes the user's columns; each kind of change
// needs its permission (role: set-role, ban columns: ban, email: set-email). A ban through
// here ends the user's sessions, as ban-user does. Answers the user, unwrapped.
func (p *Plugin) updateUser(w http.ResponseWriter, r *http.Request) {
	var b struct {
		UserID id                         `json:"userId"`
		Data   map[string]json.RawMessage `json:"data"`
	}
	check := func() error {
		var f fields
		f.required("userId", b.UserID.Set)
		if b.Data == nil {
			f.add("[body.data] Invalid input: expected record, received undefined")
		}
		return f.err()
	}
	if !auth.ReadJSON(w, r, &b, check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "update"), errNotAllowedUpdate) {
		return
	}
	if err := p.checkUpdate(c, b.UserID.Value, b.Data); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	data, err := parsePatch(b.Data)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	ctx := r.Context()
	if data.Email != nil {
		email := strings.ToLower(*data.Email)
		if !auth.ValidEmail(email) {
			auth.WriteError(w, r, auth.ErrInvalidEmail)
			return
		}
		if other, err := p.s.Store().UserByEmail(ctx, email); err == nil && other.ID != b.UserID.Value {
			auth.WriteError(w, r, errUserExists)
			return
		}
		data.Email = &email
	}
	if !p.exists(w, r, b.UserID.Value) {
		return
	}
	upd := store.UserUpdate{Name: data.Name, Email: data.Email, EmailVerified: data.EmailVerified, Image: data.Image}
	if _, err := p.s.Store().UpdateUser(ctx, b.UserID.Value, upd, p.s.Now()); err != nil {
		if data.Email != nil && !errors.Is(err, store.ErrNotFound) { // a concurrent change took the email
			if other, e := p.s.Store().UserByEmail(ctx, *data.Email); e == nil && other.ID != b.UserID.Value {
				err = errUserExists
			}
		}
		auth.WriteError(w, r, err)
		return
	}
	set := data.adminSet(map[string]any{})
	if raw, ok := b.Data["role"]; ok {
		var role roles
		_ = json.Unmarshal(raw, &role) // checked in checkUpdate
		set["role"] = role.String()
	}
	if err := p.update(ctx, b.UserID.Value, set); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if data.Banned != nil && *data.Banned {
		if err := p.s.RevokeUserSessions(ctx, b.UserID.Value, ""); err != nil {
			auth.WriteError(w, r, err)
			return
		}
	}
	p.writeUser(w, r, b.UserID.Value, false)
}

// checkUpdate applies Better Auth's refusals in its order: nothing to change, a password or an
// id, a role without set-role (or not a role), ban columns without ban (or banning oneself),
// an email change without set-email, a phone number without set-phone.
func (p *Plugin) checkUpdate(c caller, userID string, data map[string]json.RawMessage) error {
	has := func(k string) bool { _, ok := data[k]; return ok }
	switch {
	case len(data) == 0:
		return errNoDataToUpdate
	case has("password"):
		return errPasswordViaUpdate
	case has("id"):
		return errUserIDImmutable
	}
	if has("role") {
		if !p.hasPermission(c, perm("user", "set-role")) {
			return errNotAllowedChangeRole
		}
		var role roles
		if err := json.Unmarshal(data["role"], &role); err != nil {
			role.Bad = true
		}
		if err := role.check(); err != nil {
			return err
		}
	}
	if banKeys(data) {
		if !p.hasPermission(c, perm("user", "ban")) {
			return errNotAllowedBan
		}
		if string(data["banned"]) == "true" && userID == c.ID {
			return errCannotBanYourself
		}
	}
	if (has("email") || has("emailVerified")) && !p.hasPermission(c, perm("user", "set-email")) {
		return errNotAllowedSetEmail
	}
	if (has("phoneNumber") || has("phoneNumberVerified")) && !p.hasPermission(c, perm("user", "set-phone")) {
		return errNotAllowedSetPhone
	}
	return nil
}
