package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

type sendVerificationBody struct {
	Email       *string `json:"email"`
	CallbackURL *string `json:"callbackURL"`
}

// sendVerificationEmail mails a new link. Signed in: only to your own, unverified address.
// Anonymous: always answers status true so it does not reveal which emails exist.
func (s *Service) sendVerificationEmail(w http.ResponseWriter, r *http.Request) {
	var b sendVerificationBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	if !validEmail(lower(*b.Email)) {
		writeErr(w, r, httpx.BadRequest("[body.email] Invalid email address"))
		return
	}
	if err := s.CheckURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	email := lower(*b.Email)
	l, err := s.CurrentSession(w, r, false)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if l != nil {
		if l.User.Email != email {
			writeErr(w, r, ErrEmailMismatch)
			return
		}
		if l.User.EmailVerified {
			writeErr(w, r, ErrEmailAlreadyVerified)
			return
		}
		s.sendVerification(r.Context(), l.User.toStore(), str(b.CallbackURL))
		WriteStatus(w)
		return
	}
	// Anonymous: whether the address has an unverified account is found out in the background,
	// so the answer takes the same time either way.
	cb := str(b.CallbackURL)
	s.later(r.Context(), func(ctx context.Context) { s.mailVerificationTo(ctx, email, cb) })
	WriteStatus(w)
}

// mailVerificationTo mails a verification link to the account of email if it has one that is
// not verified yet. It runs in the background; failures are logged.
func (s *Service) mailVerificationTo(ctx context.Context, email, callbackURL string) {
	u, err := s.store.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	if err != nil {
		slog.Error("auth: verification mail: user lookup", "error", err)
		return
	}
	if u.EmailVerified {
		return
	}
	if m, ok := s.verificationMail(u, callbackURL); ok {
		s.deliver(ctx, m)
	}
}

func (b *sendVerificationBody) validate() error {
	var f Fields
	f.Required("email", b.Email)
	f.MaxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.Err()
}
