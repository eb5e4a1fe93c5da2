package auth

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/store"
)

const (
	resetTokenLen = 24        // spec §9
	resetTokenTTL = time.Hour // spec §9
	// resetMessage never says whether the account exists (Better Auth keeps that secret; so do we).
	resetMessage = "If this email exists in our system, check your email for the reset link"
)

type resetBody struct {
	NewPassword *string `json:"newPassword"`
	Token       *string `json:"token"`
}

// resetPassword sets a new password with a mailed token, which is then deleted. With
// AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET every session of the user ends too.
func (s *Service) resetPassword(w http.ResponseWriter, r *http.Request) {
	var b resetBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	token := str(b.Token)
	if token == "" {
		token = r.URL.Query().Get("token")
	}
	if token == "" {
		writeErr(w, r, ErrInvalidToken)
		return
	}
	if err := s.checkPassword(*b.NewPassword); err != nil {
		writeErr(w, r, err)
		return
	}
	v, err := s.validResetToken(r, token)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if v == nil {
		writeErr(w, r, ErrInvalidToken)
		return
	}
	if err := s.setPasswordAfterReset(r, v, *b.NewPassword); err != nil {
		writeErr(w, r, err)
		return
	}
	WriteStatus(w)
}

func (s *Service) setPasswordAfterReset(r *http.Request, v *store.Verification, newPassword string) error {
	ctx := r.Context()
	// Consume the token first: a second use with the same token must fail even if racing.
	if err := s.store.DeleteVerification(ctx, v.Identifier); err != nil {
		return err
	}
	u, err := s.store.UserByID(ctx, v.Value)
	if errors.Is(err, store.ErrNotFound) {
		return ErrUserNotFound
	}
	if err != nil {
		return err
	}
	hash, err := password.Hash(newPassword)
	if err != nil {
		return err
	}
	now := s.now()
	err = s.store.SetPassword(ctx, u.ID, hash, now)
	if errors.Is(err, store.ErrNotFound) {
		// A user without a credential account (social sign-in only) gets one.
		err = s.store.CreateAccount(ctx, &store.Account{ID: randomID(32), AccountID: u.ID, ProviderID: "credential", UserID: u.ID, Password: &hash, CreatedAt: now, UpdatedAt: now})
	}
	if err != nil {
		return err
	}
	if s.cfg.AuthRevokeSessionsOnReset {
		return s.store.DeleteUserSessions(ctx, u.ID, "")
	}
	return nil
}

func lower(s string) string { return strings.ToLower(s) }

func (b *resetBody) validate() error {
	var f Fields
	f.Required("newPassword", b.NewPassword)
	return f.Err()
}
