package auth

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// listSessions answers the caller's unexpired sessions (fresh session required, as Better Auth).
func (s *Service) listSessions(w http.ResponseWriter, r *http.Request) {
	l, ok := s.RequireFresh(w, r)
	if !ok {
		return
	}
	all, err := s.store.SessionsByUser(r.Context(), l.User.ID)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	out := make([]SessionJSON, 0, len(all))
	for _, x := range all {
		if x.ExpiresAt.After(s.now()) {
			out = append(out, sessionJSON(x))
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
