package auth

import (
	"context"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
)

// Helpers for plugins that keep cookies of their own (the admin plugin's admin_session) or
// answer with sessions they did not create through SignIn.

// CookieName is Better Auth's name for a plugin cookie: "better-auth.<short>", with the
// __Secure- prefix when BASE_URL is https.
func (s *Service) CookieName(short string) string {
	p := cookiePrefix + "."
	if s.cookies.secure {
		p = secureCookiePrefx + p
	}
	return p + short
}

// SetSignedCookie writes a signed cookie with the session cookie's attributes (maxAge 0: a
// browser-session cookie).
func (s *Service) SetSignedCookie(w http.ResponseWriter, name, value string, maxAge time.Duration) {
	s.setSignedCookie(w, name, value, maxAge)
}

// SignedCookie returns the verified value of a signed cookie, or "".
func (s *Service) SignedCookie(r *http.Request, name string) string { return s.readSigned(r, name) }

// ExpireCookie deletes a cookie.
func (s *Service) ExpireCookie(w http.ResponseWriter, name string) { s.setCookie(w, name, "", -1) }

// DontRemember reports whether the request carries the signed dont_remember cookie (the
// browser asked not to be remembered at sign-in).
func (s *Service) DontRemember(r *http.Request) bool {
	return s.readSigned(r, s.cookies.dontRemember) != ""
}

// SessionAnswer is a stored session as answers carry it (with the plugins' Fields).
func (s *Service) SessionAnswer(ctx context.Context, x *store.Session) (SessionJSON, error) {
	sess := sessionJSON(x)
	err := s.withFields(ctx, &sess, x, nil, nil)
	return sess, err
}

// HideSessions hides the sessions f matches from the caller's own session list
// (list-sessions): the admin plugin hides impersonation sessions there, as Better Auth does.
func (s *Service) HideSessions(f func(SessionJSON) bool) {
	s.hiddenSessions = append(s.hiddenSessions, f)
}

func (s *Service) hidden(x SessionJSON) bool {
	for _, f := range s.hiddenSessions {
		if f(x) {
			return true
		}
	}
	return false
}

// RandomString returns n characters from [a-zA-Z0-9] drawn from crypto/rand.
func RandomString(n int) string { return randomID(n) }

// EqualConstantTime compares secrets without leaking where they differ.
func EqualConstantTime(a, b string) bool { return equalConstantTime(a, b) }

// ValidEmail applies the email check of sign-up and sign-in (zod's email pattern, at most 254
// characters).
func ValidEmail(email string) bool { return validEmail(email) }

// CheckPassword applies AUTH_PASSWORD_MIN_LENGTH / MAX_LENGTH: ErrPasswordTooShort or
// ErrPasswordTooLong.
func (s *Service) CheckPassword(pw string) error { return s.checkPassword(pw) }
