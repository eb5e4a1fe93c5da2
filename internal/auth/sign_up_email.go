package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth/password"
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
	var f fields
	f.required("name", b.Name)
	f.required("email", b.Email)
	f.required("password", b.Password)
	f.maxLen("name", b.Name, maxNameLen)
	f.maxLen("image", b.Image, maxURLLen)
	f.maxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.err()
}

// signUpEmail creates a user with a credential account, mails the verification link and, unless
// email verification is required, signs the user in.
func (s *Service) signUpEmail(w http.ResponseWriter, r *http.Request) {
	var b signUpBody
	if !readJSON(w, r, &b, b.validate) {
		return
	}
	if err := s.checkURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	email := strings.ToLower(*b.Email)
	if !validEmail(email) {
		writeErr(w, r, errInvalidEmail)
		return
	}
	if err := s.checkPassword(*b.Password); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	if _, err := s.store.UserByEmail(ctx, email); err == nil {
		writeErr(w, r, errUserExists)
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	hash, err := password.Hash(*b.Password)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	now := s.now()
	u := &store.User{ID: randomID(32), Name: *b.Name, Email: email, Image: b.Image, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateUser(ctx, u); err != nil {
		// A concurrent sign-up with the same email loses the unique constraint race.
		writeErr(w, r, errFailedCreateUser)
		return
	}
	acc := &store.Account{ID: randomID(32), AccountID: u.ID, ProviderID: "credential", UserID: u.ID, Password: &hash, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateAccount(ctx, acc); err != nil {
		writeErr(w, r, err)
		return
	}
	s.userCreated(ctx, u)
	s.sendVerification(ctx, u, str(b.CallbackURL))
	if s.cfg.AuthRequireEmailVerification {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"token": nil, "user": userJSON(u)})
		return
	}
	dontRemember := b.RememberMe != nil && !*b.RememberMe
	sess, err := s.createSession(ctx, r, u.ID, dontRemember)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	s.setSessionCookies(w, r, sessionJSON(sess), userJSON(u), dontRemember)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"token": sess.Token, "user": userJSON(u)})
}
