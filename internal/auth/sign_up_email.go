package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

type signUpBody struct {
	Name        *string `json:"name"`
	Email       *string `json:"email"`
	Password    *string `json:"password"`
	Image       *string `json:"image"`
	CallbackURL *string `json:"callbackURL"`
	RememberMe  *bool   `json:"rememberMe"`
}

func (b *signUpBody) validate() error {
	var f Fields
	f.Required("name", b.Name)
	f.Required("email", b.Email)
	if b.Email != nil && !validEmail(strings.ToLower(*b.Email)) {
		f = append(f, "[body.email] Invalid email address") // sign-up's body schema checks it (zod's email)
	}
	f.Required("password", b.Password)
	f.MaxLen("name", b.Name, maxNameLen)
	f.MaxLen("image", b.Image, maxURLLen)
	f.MaxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.Err()
}

// signUpEmail creates a user with a credential account, mails the verification link and, unless
// email verification is required, signs the user in.
func (s *Service) signUpEmail(w http.ResponseWriter, r *http.Request) {
	var b signUpBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	if err := s.CheckURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	email := strings.ToLower(*b.Email)
	if err := s.checkPassword(*b.Password); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	if _, err := s.store.UserByEmail(ctx, email); err == nil {
		writeErr(w, r, ErrUserExists)
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	u, err := s.CreateUser(ctx, NewUser{Name: *b.Name, Email: email, Image: b.Image, Password: *b.Password})
	if err != nil {
		writeErr(w, r, err)
		return
	}
	s.sendVerification(ctx, u, str(b.CallbackURL))
	if s.cfg.AuthRequireEmailVerification {
		user, err := s.UserAnswer(ctx, u)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"token": nil, "user": user})
		return
	}
	dontRemember := b.RememberMe != nil && !*b.RememberMe
	sess, user, err := s.SignIn(w, r, u, dontRemember)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"token": sess.Token, "user": user})
}
