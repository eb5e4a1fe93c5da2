package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

type signInBody struct {
	Email       *string `json:"email"`
	Password    *string `json:"password"`
	CallbackURL *string `json:"callbackURL"`
	RememberMe  *bool   `json:"rememberMe"`
}

func (b *signInBody) validate() error {
	var f Fields
	f.Required("email", b.Email)
	f.Required("password", b.Password)
	f.MaxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.Err()
}

// signInEmail checks the password against the credential account and starts a session.
// Unknown emails cost a hash too, so timing does not tell which accounts exist.
func (s *Service) signInEmail(w http.ResponseWriter, r *http.Request) {
	var b signInBody
	if !ReadJSON(w, r, &b, b.validate) {
		return
	}
	if err := s.CheckURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	email := strings.ToLower(*b.Email)
	if !validEmail(email) {
		writeErr(w, r, ErrInvalidEmail)
		return
	}
	if len(*b.Password) > 4*s.cfg.AuthPasswordMaxLength || s.checkPassword(*b.Password) == ErrPasswordTooLong {
		writeErr(w, r, ErrPasswordTooLong)
		return
	}
	u, err := s.checkCredentials(r, email, *b.Password)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if s.cfg.AuthRequireEmailVerification && !u.EmailVerified {
		s.sendVerification(r.Context(), u, str(b.CallbackURL))
		writeErr(w, r, ErrEmailNotVerified)
		return
	}
	dontRemember := b.RememberMe != nil && !*b.RememberMe
	sess, user, err := s.SignIn(w, r, u, dontRemember)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	cb := str(b.CallbackURL)
	if cb != "" {
		w.Header().Set("Location", cb)
	}
	resp := map[string]any{"redirect": cb != "", "token": sess.Token, "user": user}
	if cb != "" {
		resp["url"] = cb
	}
	httpx.WriteJSON(w, http.StatusOK, resp)
}

// dummyHash is verified against when the account does not exist, to spend the same time.
var dummyHash, _ = password.Hash("not-a-real-password")

func (s *Service) checkCredentials(r *http.Request, email, pw string) (*store.User, error) {
	ctx := r.Context()
	u, err := s.store.UserByEmail(ctx, email)
	if errors.Is(err, store.ErrNotFound) {
		password.Verify(dummyHash, pw)
		return nil, ErrInvalidEmailPassword
	}
	if err != nil {
		return nil, err
	}
	acc, err := s.store.CredentialAccount(ctx, u.ID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && acc.Password == nil) {
		password.Verify(dummyHash, pw)
		return nil, ErrInvalidEmailPassword
	}
	if err != nil {
		return nil, err
	}
	ok, err := password.Verify(*acc.Password, pw)
	if err != nil && !errors.Is(err, password.ErrMalformed) {
		return nil, err
	}
	if !ok {
		return nil, ErrInvalidEmailPassword
	}
	return u, nil
}
