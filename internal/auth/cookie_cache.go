package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// The session_data cookie caches session and user for cookieCacheMaxAge so get-session needs no
// database read. Format (Better Auth's "compact" strategy):
//   base64url({"session": <payload>, "expiresAt": <ms>, "signature": base64url(HMAC(secret, payload+expiresAt))})
// where the signed text is JSON.stringify({...payload, expiresAt}).

type cachePayload struct {
	Session   SessionJSON `json:"session"`
	User      UserJSON    `json:"user"`
	UpdatedAt int64       `json:"updatedAt"`
	Version   string      `json:"version"`
}

type cacheEnvelope struct {
	Session   json.RawMessage `json:"session"`
	ExpiresAt int64           `json:"expiresAt"`
	Signature string          `json:"signature"`
}

// cacheSignedText rebuilds JSON.stringify({...payload, expiresAt}) from the payload's own bytes,
// so cookies written by Better Auth verify whatever key order they use.
func cacheSignedText(payload []byte, expiresAt int64) []byte {
	if len(payload) < 2 || payload[len(payload)-1] != '}' {
		return nil
	}
	sep := ","
	if len(payload) == 2 { // "{}"
		sep = ""
	}
	out := append([]byte{}, payload[:len(payload)-1]...)
	return append(out, []byte(sep+`"expiresAt":`+strconv.FormatInt(expiresAt, 10)+`}`)...)
}

func (s *Service) cacheSignature(text []byte) string {
	mac := hmac.New(sha256.New, s.secret)
	mac.Write(text)
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// sessionPair is a session and its user encoded once: get-session writes both into its answer
// and into the session-data cookie, and encoding them for each was a fifth of its database path.
type sessionPair struct{ session, user []byte }

func encodePair(sess SessionJSON, user UserJSON) sessionPair {
	sb, _ := sess.MarshalJSON() // cannot fail: strings, numbers, bools and the plugins' JSON values
	ub, _ := user.MarshalJSON()
	return sessionPair{sb, ub}
}

// object is {"session":…,"user":…} followed by rest (more members, each led by a comma): the
// bytes compactJSON writes for a struct of the two and those members.
func (p sessionPair) object(rest string) []byte {
	b := make([]byte, 0, len(p.session)+len(p.user)+len(rest)+20)
	b = append(append(b, `{"session":`...), p.session...)
	b = append(append(b, `,"user":`...), p.user...)
	return append(append(b, rest...), '}')
}

// encodeCookieCache returns the session_data value, or "" when it would exceed the cookie limit.
func (s *Service) encodeCookieCache(sess SessionJSON, user UserJSON, now time.Time) string {
	return s.encodeCookieCachePair(encodePair(sess, user), now)
}

func (s *Service) encodeCookieCachePair(p sessionPair, now time.Time) string {
	payload := p.object(`,"updatedAt":` + strconv.FormatInt(now.UnixMilli(), 10) + `,"version":"1"`)
	exp := now.Add(cookieCacheMaxAge).UnixMilli()
	sig := s.cacheSignature(cacheSignedText(payload, exp)) // base64url: nothing to escape
	env := make([]byte, 0, len(payload)+100)
	env = append(append(env, `{"session":`...), payload...)
	env = append(env, `,"expiresAt":`+strconv.FormatInt(exp, 10)+`,"signature":"`+sig+`"}`...)
	v := base64.RawURLEncoding.EncodeToString(env)
	if len(v) > sessionDataMax {
		return ""
	}
	return v
}

// decodeCookieCache verifies a session_data value and returns its payload and the time the
// cache entry expires, if still fresh.
func (s *Service) decodeCookieCache(value string, now time.Time) (*cachePayload, time.Time, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil {
		return nil, time.Time{}, false
	}
	var env cacheEnvelope
	if err := json.Unmarshal(raw, &env); err != nil || env.Signature == "" {
		return nil, time.Time{}, false
	}
	want := s.cacheSignature(cacheSignedText(env.Session, env.ExpiresAt))
	if !hmac.Equal([]byte(want), []byte(env.Signature)) {
		return nil, time.Time{}, false
	}
	var p cachePayload
	if err := json.Unmarshal(env.Session, &p); err != nil {
		return nil, time.Time{}, false
	}
	if (p.Version != "" && p.Version != "1") || env.ExpiresAt < now.UnixMilli() || time.Time(p.Session.ExpiresAt).Before(now) {
		return nil, time.Time{}, false
	}
	return &p, time.UnixMilli(env.ExpiresAt), true
}

// SetSessionCookies writes the token cookie (browser-session only when dontRemember), the
// dont_remember marker and the cache cookie, as Better Auth's setSessionCookie does.
func (s *Service) SetSessionCookies(w http.ResponseWriter, r *http.Request, sess SessionJSON, user UserJSON, dontRemember bool) {
	maxAge := s.cfg.AuthSessionExpiresIn
	if dontRemember {
		maxAge = 0
		s.setSignedCookie(w, s.cookies.dontRemember, "true", 0)
	} else if r != nil && s.readSigned(r, s.cookies.dontRemember) != "" {
		s.setCookie(w, s.cookies.dontRemember, "", -1)
	}
	s.setSignedCookie(w, s.cookies.sessionToken, sess.Token, maxAge)
	s.setCacheCookie(w, sess, user, dontRemember)
}

// refreshCookies rewrites a cookie session's cookies after its user changed, as Better Auth's
// setSessionCookie does (so the bearer plugin's set-auth-token follows too). A bearer caller
// has no cookies to refresh.
func (s *Service) refreshCookies(w http.ResponseWriter, r *http.Request, l *Current, user UserJSON) {
	if l.Bearer {
		return
	}
	s.SetSessionCookies(w, r, l.Session, user, l.DontRemember)
}

func (s *Service) setCacheCookie(w http.ResponseWriter, sess SessionJSON, user UserJSON, dontRemember bool) {
	s.setCacheCookiePair(w, encodePair(sess, user), dontRemember)
}

func (s *Service) setCacheCookiePair(w http.ResponseWriter, p sessionPair, dontRemember bool) {
	v := s.encodeCookieCachePair(p, s.now())
	if v == "" {
		s.setCookie(w, s.cookies.sessionData, "", -1)
		return
	}
	age := cookieCacheMaxAge
	if dontRemember {
		age = 0
	}
	s.setCookie(w, s.cookies.sessionData, v, age)
}
