package auth

import (
	"net/http"
)

// revokeSession ends one of the caller's own sessions by token.
func (s *Service) revokeSession(w http.ResponseWriter, r *http.Request) {
	l, ok := s.RequireFresh(w, r)
	if !ok {
		return
	}
	var b struct {
		Token *string `json:"token"`
	}
	if !ReadJSON(w, r, &b, func() error { return Required("token", b.Token) }) {
		return
	}
	all, err := s.store.SessionsByUser(r.Context(), l.User.ID)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	for _, x := range all {
		if equalConstantTime(x.Token, *b.Token) {
			if err := s.store.DeleteSession(r.Context(), x.Token); err != nil {
				writeErr(w, r, err)
				return
			}
			if x.Token == l.Session.Token {
				s.clearSessionCookies(w) // the caller ended its own session: its cookies go too
			}
			WriteStatus(w)
			return
		}
	}
	// Someone else's token, or none: the same answer as Better Auth's, so tokens cannot be
	// probed and nothing is revoked.
	WriteStatus(w)
}
