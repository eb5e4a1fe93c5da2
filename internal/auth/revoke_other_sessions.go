package auth

import "net/http"

func (s *Service) revokeOtherSessions(w http.ResponseWriter, r *http.Request) {
	s.revokeAll(w, r, true)
}
