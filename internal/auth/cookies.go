package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Cookie names and attributes exactly as Better Auth sets them, so sessions issued by a Better
// Auth app with the same secret stay valid here and the other way round.
const (
	cookiePrefix      = "better-auth"
	secureCookiePrefx = "__Secure-"
	maxCookieAge      = 400 * 24 * time.Hour // browsers cap cookies at 400 days (spec §9)
	sessionDataMax    = 4093                 // a bigger encoded session_data cookie is skipped
	cookieCacheMaxAge = 60 * time.Second     // session_data cookie lifetime (spec §9)
)

type cookieNames struct {
	secure       bool
	sessionToken string
	sessionData  string
	dontRemember string
}

func newCookieNames(https bool) cookieNames {
	p := cookiePrefix + "."
	if https {
		p = secureCookiePrefx + p
	}
	return cookieNames{secure: https, sessionToken: p + "session_token", sessionData: p + "session_data", dontRemember: p + "dont_remember"}
}

// sign returns Better Auth's signed cookie value: value "." base64(HMAC-SHA256(secret, value)).
func sign(secret []byte, value string) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(value))
	return value + "." + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// unsign verifies a signed cookie value and returns what was signed.
func unsign(secret []byte, signed string) (string, bool) {
	i := strings.LastIndexByte(signed, '.')
	if i < 1 {
		return "", false
	}
	value, sig := signed[:i], signed[i+1:]
	if len(sig) != 44 || !strings.HasSuffix(sig, "=") {
		return "", false
	}
	got, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return "", false
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(value))
	return value, hmac.Equal(got, mac.Sum(nil))
}

// readSigned returns the verified value of a signed cookie, or "".
func (s *Service) readSigned(r *http.Request, name string) string {
	c, err := r.Cookie(name)
	if err != nil || c.Value == "" {
		return ""
	}
	raw, err := url.PathUnescape(c.Value)
	if err != nil {
		return ""
	}
	v, ok := unsign(s.secret, raw)
	if !ok {
		return ""
	}
	return v
}

// setCookie writes a cookie with Better Auth's attributes. maxAge < 0 deletes it; 0 makes it
// a browser-session cookie.
func (s *Service) setCookie(w http.ResponseWriter, name, value string, maxAge time.Duration) {
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: s.cookies.secure, SameSite: http.SameSiteLaxMode}
	switch {
	case maxAge < 0:
		c.MaxAge = -1
	case maxAge > 0:
		c.MaxAge = int(min(maxAge, maxCookieAge) / time.Second)
	}
	http.SetCookie(w, c)
}

func (s *Service) setSignedCookie(w http.ResponseWriter, name, value string, maxAge time.Duration) {
	s.setCookie(w, name, url.QueryEscape(sign(s.secret, value)), maxAge)
}

// clearSessionCookies expires every session cookie (sign-out, invalid session).
func (s *Service) clearSessionCookies(w http.ResponseWriter) {
	for _, n := range []string{s.cookies.sessionToken, s.cookies.sessionData, s.cookies.dontRemember} {
		s.setCookie(w, n, "", -1)
	}
}

// SessionCookieName is the session token cookie's name (with __Secure- on https).
func (s *Service) SessionCookieName() string { return s.cookies.sessionToken }

// VerifySigned checks a signed value ("value.signature", as the session cookie holds) and
// returns the value.
func (s *Service) VerifySigned(signed string) (string, bool) { return unsign(s.secret, signed) }
