package auth

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// signOut deletes the session and clears its cookies. Without a session it still answers
// success, as Better Auth does.
func (s *Service) signOut(w http.ResponseWriter, r *http.Request) {
	if token, _ := s.sessionToken(r); token != "" {
		if err := s.store.DeleteSession(r.Context(), token); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	s.clearSessionCookies(w)
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"success": true})
}
