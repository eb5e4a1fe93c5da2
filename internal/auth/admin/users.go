package admin

import (
	"context"
	"errors"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

// userAnswer reads a user as answers carry it, or USER_NOT_FOUND.
func (p *Plugin) userAnswer(ctx context.Context, userID string) (auth.UserJSON, error) {
	u, err := p.s.Store().UserByID(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return auth.UserJSON{}, errUserNotFound
	}
	if err != nil {
		return auth.UserJSON{}, err
	}
	return p.s.UserAnswer(ctx, u)
}

// exists answers USER_NOT_FOUND (404) and returns false when the user does not exist.
func (p *Plugin) exists(w http.ResponseWriter, r *http.Request, userID string) bool {
	_, err := p.s.Store().UserByID(r.Context(), userID)
	if errors.Is(err, store.ErrNotFound) {
		auth.WriteError(w, r, errUserNotFound)
		return false
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return false
	}
	return true
}

// writeUser answers the user, wrapped as {"user": ...} when wrap is set.
func (p *Plugin) writeUser(w http.ResponseWriter, r *http.Request, userID string, wrap bool) {
	u, err := p.userAnswer(r.Context(), userID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if wrap {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"user": u})
		return
	}
	httpx.WriteJSON(w, http.StatusOK, u)
}

type userIDBody struct {
	UserID id `json:"userId"`
}

func (b *userIDBody) check() error {
	var f fields
	f.required("userId", b.UserID.Set)
	return f.err()
}

// POST /admin/set-role {userId, role}: role is one role or a list (stored comma-separated).
func (p *Plugin) setRole(w http.ResponseWriter, r *http.Request) {
	var b struct {
		UserID id    `json:"userId"`
		Role   roles `json:"role"`
	}
	check := func() error {
		var f fields
		f.required("userId", b.UserID.Set)
		if !b.Role.Set || b.Role.Bad {
			f.add("[body.role] Invalid input")
		}
		return f.err()
	}
	if !auth.ReadJSON(w, r, &b, check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "set-role"), errNotAllowedChangeRole) {
		return
	}
	if err := b.Role.check(); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if !p.exists(w, r, b.UserID.Value) {
		return
	}
	if err := p.update(r.Context(), b.UserID.Value, map[string]any{"role": b.Role.String()}); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	p.writeUser(w, r, b.UserID.Value, true)
}

// GET /admin/get-user?id=: the user, unwrapped.
func (p *Plugin) getUser(w http.ResponseWriter, r *http.Request) {
	userID, ok := r.URL.Query()["id"]
	if !ok {
		auth.WriteError(w, r, httpx.BadRequest("[query.id] Invalid input: expected string, received undefined"))
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "get"), errNotAllowedGet) {
		return
	}
	p.writeUser(w, r, userID[0], false)
}

// POST /admin/remove-user {userId}: the user and everything it owns (workspaces, sessions,
// accounts), through the core's DeleteUser.
func (p *Plugin) removeUser(w http.ResponseWriter, r *http.Request) {
	var b userIDBody
	if !auth.ReadJSON(w, r, &b, b.check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "delete"), errNotAllowedDelete) {
		return
	}
	if b.UserID.Value == c.ID {
		auth.WriteError(w, r, errCannotRemoveYourself)
		return
	}
	if !p.exists(w, r, b.UserID.Value) {
		return
	}
	if err := p.s.DeleteUser(r.Context(), b.UserID.Value); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
}

// POST /admin/set-user-password {userId, newPassword}: sets (or creates) the credential
// account's password.
func (p *Plugin) setUserPassword(w http.ResponseWriter, r *http.Request) {
	var b struct {
		UserID      id      `json:"userId"`
		NewPassword *string `json:"newPassword"`
	}
	check := func() error {
		var f fields
		switch {
		case b.NewPassword == nil:
			f.required("newPassword", false)
		case *b.NewPassword == "":
			f.add("[body.newPassword] newPassword cannot be empty")
		case len(*b.NewPassword) > 4096:
			f.add("[body.newPassword] Too big: expected string to have <=4096 characters")
		}
		switch {
		case !b.UserID.Set:
			f.required("userId", false)
		case b.UserID.Value == "":
			f.add("[body.userId] userId cannot be empty")
		}
		return f.err()
	}
	if !auth.ReadJSON(w, r, &b, check) {
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "set-password"), errNotAllowedSetPassword) {
		return
	}
	if err := p.s.CheckPassword(*b.NewPassword); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if !p.exists(w, r, b.UserID.Value) {
		return
	}
	if err := p.setPassword(r.Context(), b.UserID.Value, *b.NewPassword); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	auth.WriteStatus(w)
}

func (p *Plugin) setPassword(ctx context.Context, userID, pw string) error {
	hash, err := password.Hash(pw)
	if err != nil {
		return err
	}
	st, now := p.s.Store(), p.s.Now()
	_, err = st.CredentialAccount(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return st.CreateAccount(ctx, &store.Account{ID: auth.NewID(), AccountID: userID, ProviderID: "credential", UserID: userID,
			Password: &hash, CreatedAt: now, UpdatedAt: now})
	}
	if err != nil {
		return err
	}
	return st.SetPassword(ctx, userID, hash, now)
}
