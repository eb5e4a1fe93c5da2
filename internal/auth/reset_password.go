package auth

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

const (
	resetTokenLen = 24        // spec §9
	resetTokenTTL = time.Hour // spec §9
	// resetMessage never says whether the account exists (Better Auth keeps that secret; so do we).
	resetMessage = "If this email exists in our system, check your email for the reset link"
)

type resetRequestBody struct {
	Email      *string `json:"email"`
	RedirectTo *string `json:"redirectTo"`
}

// requestPasswordReset (and its alias /forget-password) mails a single-use reset link.
func (s *Service) requestPasswordReset(w http.ResponseWriter, r *http.Request) {
	var b resetRequestBody
	if !readJSON(w, r, &b, b.validate) {
		return
	}
	if !validEmail(lower(*b.Email)) {
		writeErr(w, r, httpx.BadRequest("[body.email] Invalid email address"))
		return
	}
	if err := s.checkURLs("", str(b.RedirectTo), "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	u, err := s.store.UserByEmail(ctx, lower(*b.Email))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	if u != nil {
		token, now := randomID(resetTokenLen), s.now()
		v := &store.Verification{ID: randomID(32), Identifier: "reset-password:" + token, Value: u.ID, ExpiresAt: now.Add(resetTokenTTL), CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateVerification(ctx, v); err != nil {
			writeErr(w, r, err)
			return
		}
		link := s.cfg.BaseURL.String() + BasePath + "/reset-password/" + token + "?callbackURL=" + url.QueryEscape(str(b.RedirectTo))
		s.send(ctx, mail.PasswordReset(u.Email, u.Name, link))
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"status": true, "message": resetMessage})
}

// resetPasswordCallback is the mailed link: it checks the token and redirects to the app's
// page with ?token=, or with ?error=INVALID_TOKEN.
func (s *Service) resetPasswordCallback(w http.ResponseWriter, r *http.Request) {
	token, callbackURL := r.PathValue("token"), r.URL.Query().Get("callbackURL")
	if !s.safeURL(callbackURL) || len(callbackURL) > maxURLLen {
		writeErr(w, r, errInvalidCallbackURL)
		return
	}
	if callbackURL == "" {
		http.Redirect(w, r, s.cfg.BaseURL.String()+BasePath+"/error?error=INVALID_TOKEN", http.StatusFound)
		return
	}
	target := s.absoluteURL(callbackURL)
	if v, err := s.validResetToken(r, token); err != nil || v == nil {
		http.Redirect(w, r, appendQuery(target, "error", "INVALID_TOKEN"), http.StatusFound)
		return
	}
	http.Redirect(w, r, appendQuery(target, "token", token), http.StatusFound)
}

func (s *Service) validResetToken(r *http.Request, token string) (*store.Verification, error) {
	if token == "" || len(token) > 64 || strings.ContainsAny(token, ":/") {
		return nil, nil
	}
	v, err := s.store.VerificationByIdentifier(r.Context(), "reset-password:"+token)
	if errors.Is(err, store.ErrNotFound) || (err == nil && v.ExpiresAt.Before(s.now())) {
		return nil, nil
	}
	return v, err
}

type resetBody struct {
	NewPassword *string `json:"newPassword"`
	Token       *string `json:"token"`
}

// resetPassword sets a new password with a mailed token, which is then deleted. With
// AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET every session of the user ends too.
func (s *Service) resetPassword(w http.ResponseWriter, r *http.Request) {
	var b resetBody
	if !readJSON(w, r, &b, b.validate) {
		return
	}
	token := str(b.Token)
	if token == "" {
		token = r.URL.Query().Get("token")
	}
	if token == "" {
		writeErr(w, r, errInvalidToken)
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
		writeErr(w, r, errInvalidToken)
		return
	}
	if err := s.setPasswordAfterReset(r, v, *b.NewPassword); err != nil {
		writeErr(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
}

func (s *Service) setPasswordAfterReset(r *http.Request, v *store.Verification, newPassword string) error {
	ctx := r.Context()
	// Consume the token first: a second use with the same token must fail even if racing.
	if err := s.store.DeleteVerification(ctx, v.Identifier); err != nil {
		return err
	}
	u, err := s.store.UserByID(ctx, v.Value)
	if errors.Is(err, store.ErrNotFound) {
		return errUserNotFound
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

func (b *resetRequestBody) validate() error {
	var f fields
	f.required("email", b.Email)
	f.maxLen("redirectTo", b.RedirectTo, maxURLLen)
	return f.err()
}

func (b *resetBody) validate() error {
	var f fields
	f.required("newPassword", b.NewPassword)
	return f.err()
}
