package auth

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

type changeEmailBody struct {
	NewEmail    *string `json:"newEmail"`
	CallbackURL *string `json:"callbackURL"`
}

// changeEmail: a verified user confirms on the current address first; an unverified user's
// email changes at once, unverified, with a verification sent to the new address.
func (s *Service) changeEmail(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.AuthChangeEmailEnabled {
		writeErr(w, r, ErrChangeEmailOff)
		return
	}
	l, ok := s.RequireSensitive(w, r)
	if !ok {
		return
	}
	var b changeEmailBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	if err := s.CheckURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	newEmail := lower(strings.TrimSpace(*b.NewEmail))
	if !validEmail(newEmail) {
		writeErr(w, r, ErrInvalidEmail)
		return
	}
	if newEmail == l.User.Email {
		writeErr(w, r, ErrEmailSame)
		return
	}
	ctx := r.Context()
	if _, err := s.store.UserByEmail(ctx, newEmail); err == nil {
		writeErr(w, r, ErrEmailTaken)
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	cb := str(b.CallbackURL)
	if cb == "" {
		cb = "/"
	}
	if l.User.EmailVerified {
		token, err := s.changeEmailToken(l.User.Email, newEmail, l.User.ID, "change-email-confirmation")
		if err != nil {
			writeErr(w, r, err)
			return
		}
		link := s.cfg.BaseURL.String() + BasePath + "/verify-email?token=" + url.QueryEscape(token) + "&callbackURL=" + url.QueryEscape(cb)
		s.send(ctx, mail.EmailChange(l.User.Email, l.User.Name, newEmail, link))
		WriteStatus(w)
		return
	}
	verified := false
	u, err := s.UpdateUser(ctx, l.User.ID, store.UserUpdate{Email: &newEmail, EmailVerified: &verified})
	if err != nil {
		writeErr(w, r, ErrEmailTaken)
		return
	}
	s.refreshCookies(w, r, l, userJSON(u))
	s.sendVerification(ctx, u, cb)
	WriteStatus(w)
}

func (b *changeEmailBody) validate() error {
	var f Fields
	f.Required("newEmail", b.NewEmail)
	f.MaxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.Err()
}
