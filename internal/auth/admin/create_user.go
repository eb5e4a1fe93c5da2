package admin

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

type createUserBody struct {
	Email    *string                    `json:"email"`
	Password *string                    `json:"password"`
	Name     *string                    `json:"name"`
	Role     roles                      `json:"role"`
	Data     map[string]json.RawMessage `json:"data"`
}

func (b *createUserBody) check() error {
	var f fields
	f.required("email", b.Email != nil)
	f.required("name", b.Name != nil)
	if b.Email != nil && len(*b.Email) > 254 {
		f.add("[body.email] Too big: expected string to have <=254 characters")
	}
	if b.Name != nil && utf8.RuneCountInString(*b.Name) > 256 {
		f.add("[body.name] Too big: expected string to have <=256 characters")
	}
	if b.Password != nil && len(*b.Password) > 4096 {
		f.add("[body.password] Too big: expected string to have <=4096 characters")
	}
	if b.Role.Set && b.Role.Bad {
		f.add("[body.role] Invalid input")
	}
	return f.err()
}

// POST /admin/create-user {email, password?, name, role?, data?}: a user (with a credential
// account when a password is given), created through the core so the user-created hooks run.
func (p *Plugin) createUser(w http.ResponseWriter, r *http.Request) {
	var b createUserBody
	if !auth.ReadJSON(w, r, &b, b.check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "create"), errNotAllowedCreate) {
		return
	}
	role := b.Role
	if raw, ok := b.Data["role"]; ok && !role.Set {
		if err := json.Unmarshal(raw, &role); err != nil || isNull(raw) {
			role = roles{Set: true, Bad: true}
		}
	}
	if role.Set {
		if !p.allowed(w, r, c, perm("user", "set-role"), errNotAllowedChangeRole) {
			return
		}
		if err := role.check(); err != nil {
			auth.WriteError(w, r, err)
			return
		}
	}
	if banKeys(b.Data) && !p.allowed(w, r, c, perm("user", "ban"), errNotAllowedBan) {
		return
	}
	data, err := parsePatch(b.Data)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	email := strings.ToLower(*b.Email)
	if !auth.ValidEmail(email) {
		auth.WriteError(w, r, auth.ErrInvalidEmail)
		return
	}
	if b.Password != nil && *b.Password != "" && p.s.CheckPassword(*b.Password) == auth.ErrPasswordTooLong {
		auth.WriteError(w, r, auth.ErrPasswordTooLong)
		return
	}
	ctx := r.Context()
	if _, err := p.s.Store().UserByEmail(ctx, email); err == nil {
		auth.WriteError(w, r, errUserExists)
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		auth.WriteError(w, r, err)
		return
	}
	nu := auth.NewUser{Name: *b.Name, Email: email}
	if b.Password != nil {
		nu.Password = *b.Password
	}
	if data.EmailVerified != nil {
		nu.EmailVerified = *data.EmailVerified
	}
	if data.Image != nil {
		nu.Image = *data.Image
	}
	u, err := p.s.CreateUser(ctx, nu)
	if errors.Is(err, auth.ErrFailedCreateUser) { // lost a race for the email
		err = errUserExists
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	set := data.adminSet(map[string]any{"role": defaultRole})
	if role.Set {
		set["role"] = role.String()
	}
	if err := p.update(ctx, u.ID, set); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	created, err := p.userAnswer(ctx, u.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"user": created})
}
