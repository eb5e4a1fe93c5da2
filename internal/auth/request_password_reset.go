package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

type resetRequestBody struct {
	Email      *string `json:"email"`
	RedirectTo *string `json:"redirectTo"`
}

// requestPasswordReset (and its alias /forget-password) mails a single-use reset link.
func (s *Service) requestPasswordReset(w http.ResponseWriter, r *http.Request) {
	var b resetRequestBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	if !validEmail(lower(*b.Email)) {
		writeErr(w, r, httpx.BadRequest("[body.email] Invalid email address"))
		return
	}
	if err := s.CheckURLs("", str(b.RedirectTo), "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	// Whether the account exists is found out in the background: the answer, and the time it
	// takes, are the same either way.
	email, redirectTo := lower(*b.Email), str(b.RedirectTo)
	s.later(r.Context(), func(ctx context.Context) { s.mailPasswordReset(ctx, email, redirectTo) })
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"status": true, "message": resetMessage})
}

func (b *resetRequestBody) validate() error {
	var f Fields
	f.Required("email", b.Email)
	f.MaxLen("redirectTo", b.RedirectTo, maxURLLen)
	return f.Err()
}

// mailPasswordReset stores a reset token for the account of email, if there is one, and mails
// its link. It runs in the background; failures are logged.
func (s *Service) mailPasswordReset(ctx context.Context, email, redirectTo string) {
	u, err := s.store.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	if err != nil {
		slog.Error("auth: password reset: user lookup", "error", err)
		return
	}
	token, now := randomID(resetTokenLen), s.now()
	v := &store.Verification{ID: randomID(32), Identifier: "reset-password:" + token, Value: u.ID, ExpiresAt: now.Add(resetTokenTTL), CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateVerification(ctx, v); err != nil {
		slog.Error("auth: password reset: store token", "error", err)
		return
	}
	link := s.cfg.BaseURL.String() + BasePath + "/reset-password/" + token + "?callbackURL=" + url.QueryEscape(redirectTo)
	s.deliver(ctx, mail.PasswordReset(u.Email, u.Name, link))
}
