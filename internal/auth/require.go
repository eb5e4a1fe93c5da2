package auth

import (
	"net/http"
	"time"
)

// RequireSensitive loads the caller's session from the database, never from the cookie cache
// (Better Auth's sensitive-session rule), answering 401 without one.
func (s *Service) RequireSensitive(w http.ResponseWriter, r *http.Request) (*Current, bool) {
	l, err := s.CurrentSession(w, r, false)
	if err != nil {
		writeErr(w, r, err)
		return nil, false
	}
	if l == nil {
		writeErr(w, r, ErrUnauthorized)
		return nil, false
	}
	return l, true
}

// RequireFresh additionally requires a session younger than AUTH_SESSION_FRESH_AGE (0
// disables the check), answering SESSION_NOT_FRESH otherwise.
func (s *Service) RequireFresh(w http.ResponseWriter, r *http.Request) (*Current, bool) {
	l, ok := s.RequireSensitive(w, r)
	if !ok {
		return nil, false
	}
	if age := s.cfg.AuthSessionFreshAge; age > 0 && s.now().Sub(time.Time(l.Session.CreatedAt)) >= age {
		writeErr(w, r, ErrSessionNotFresh)
		return nil, false
	}
	return l, true
}
