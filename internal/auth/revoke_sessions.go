package auth

import (
	"net/http"
)

func (s *Service) revokeSessions(w http.ResponseWriter, r *http.Request) {
	s.revokeAll(w, r, false)
}

func (s *Service) revokeAll(w http.ResponseWriter, r *http.Request, keepCurrent bool) {
	l, ok := s.RequireFresh(w, r)
	if !ok {
		return
	}
	keep := ""
	if keepCurrent {
		keep = l.Session.Token
	}
	if err := s.store.DeleteUserSessions(r.Context(), l.User.ID, keep); err != nil {
		writeErr(w, r, err)
		return
	}
	if !keepCurrent {
		s.clearSessionCookies(w)
	}
	WriteStatus(w)
}
