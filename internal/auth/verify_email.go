package auth

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/golang-jwt/jwt/v5"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

// verifyEmail marks the address verified and signs the user in. Failures redirect to the
// callback with ?error=<code>, or answer 401 without one.
func (s *Service) verifyEmail(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := RequiredQuery(q, "token"); err != nil {
		writeErr(w, r, err)
		return
	}
	token, callbackURL := q.Get("token"), q.Get("callbackURL")
	if !s.SafeURL(callbackURL) || len(callbackURL) > maxURLLen {
		writeErr(w, r, ErrInvalidCallbackURL)
		return
	}
	fail := func(code string) {
		if callbackURL != "" {
			http.Redirect(w, r, appendQuery(callbackURL, "error", code), http.StatusFound)
			return
		}
		writeErr(w, r, e(http.StatusUnauthorized, code, code))
	}
	if token == "" || len(token) > maxTokenLen {
		fail(verifyInvalidToken)
		return
	}
	var c verifyClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.secret, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(s.now))
	if errors.Is(err, jwt.ErrTokenExpired) {
		fail(verifyTokenExpired)
		return
	}
	if err != nil || c.Email == "" {
		fail(verifyInvalidToken)
		return
	}
	if c.UpdateTo != "" {
		s.verifyEmailChange(w, r, &c, callbackURL, fail)
		return
	}
	ctx := r.Context()
	u, err := s.store.UserByEmail(ctx, lower(c.Email))
	if errors.Is(err, store.ErrNotFound) {
		fail(verifyUserNotFound)
		return
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if c.UserID != "" && !equalConstantTime(c.UserID, u.ID) {
		fail(verifyInvalidToken)
		return
	}
	if !u.EmailVerified {
		verified := true
		if u, err = s.UpdateUser(ctx, u.ID, store.UserUpdate{EmailVerified: &verified}); err != nil {
			writeErr(w, r, err)
			return
		}
		if err := s.signInAfterVerification(w, r, u); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	if callbackURL != "" {
		http.Redirect(w, r, callbackURL, http.StatusFound)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"status": true, "user": nil})
}

// verifyEmailChange runs the two steps of a verified user's email change: the current address
// approves (a verification goes to the new one), then the new address confirms and the email changes.
func (s *Service) verifyEmailChange(w http.ResponseWriter, r *http.Request, c *verifyClaims, callbackURL string, fail func(string)) {
	ctx := r.Context()
	u, err := s.store.UserByID(ctx, c.UserID)
	if errors.Is(err, store.ErrNotFound) {
		fail(verifyUserNotFound)
		return
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if u.Email != lower(c.Email) {
		fail(verifyInvalidToken)
		return
	}
	switch c.RequestType {
	case "change-email-confirmation":
		token, err := s.changeEmailToken(u.Email, c.UpdateTo, u.ID, "change-email-verification")
		if err != nil {
			writeErr(w, r, err)
			return
		}
		cb := callbackURL
		if cb == "" {
			cb = "/"
		}
		link := s.cfg.BaseURL.String() + BasePath + "/verify-email?token=" + url.QueryEscape(token) + "&callbackURL=" + url.QueryEscape(cb)
		s.send(ctx, mail.Verification(c.UpdateTo, u.Name, link))
	case "change-email-verification":
		newEmail, verified := lower(c.UpdateTo), true
		updated, err := s.UpdateUser(ctx, u.ID, store.UserUpdate{Email: &newEmail, EmailVerified: &verified})
		if err != nil {
			fail(verifyInvalidToken) // the address was taken in the meantime
			return
		}
		// The browser's session, when it is this user's, carries the new address at once.
		if l, err := s.CurrentSession(w, r, false); err == nil && l != nil && l.User.ID == u.ID {
			s.refreshCookies(w, r, l, userJSON(updated))
		}
		if callbackURL == "" {
			httpx.WriteJSON(w, http.StatusOK, map[string]any{"status": true, "user": userJSON(updated)})
			return
		}
	default:
		fail(verifyInvalidToken)
		return
	}
	if callbackURL != "" {
		http.Redirect(w, r, callbackURL, http.StatusFound)
		return
	}
	WriteStatus(w)
}

// signInAfterVerification starts a session unless the browser already has one for this user,
// so following the mailed link lands on the dashboard.
func (s *Service) signInAfterVerification(w http.ResponseWriter, r *http.Request, u *store.User) error {
	l, err := s.CurrentSession(w, r, false)
	if err != nil {
		return err
	}
	if l != nil && l.User.ID == u.ID {
		s.setCacheCookie(w, l.Session, userJSON(u), l.DontRemember)
		return nil
	}
	_, _, err = s.SignIn(w, r, u, false)
	return err
}

// appendQuery adds key=value to a URL that may already have a query.
func appendQuery(raw, key, value string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}
