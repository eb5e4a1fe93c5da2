package auth

import (
	"errors"
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
	if u, err := s.store.UserByEmail(r.Context(), email); err == nil && !u.EmailVerified {
		s.sendVerification(r.Context(), u, str(b.CallbackURL))
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	WriteStatus(w)
}

func (b *sendVerificationBody) validate() error {
	var f Fields
	f.Required("email", b.Email)
	f.MaxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.Err()
}
