package auth

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// deleteUserCallback is the mailed deletion link: the browser's session must be the user's.
func (s *Service) deleteUserCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := RequiredQuery(q, "token"); err != nil {
		writeErr(w, r, err)
		return
	}
	cb := q.Get("callbackURL")
	if !s.SafeURL(cb) {
		writeErr(w, r, ErrInvalidCallbackURL)
		return
	}
	if !s.cfg.AuthDeleteUserEnabled {
		writeErr(w, r, ErrDeleteDisabled)
		return
	}
	l, err := s.CurrentSession(w, r, false) // from the database: the link deletes the account
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if l == nil {
		writeErr(w, r, ErrNoUserInfo)
		return
	}
	if err := s.consumeDeleteToken(r, l.User.ID, r.URL.Query().Get("token")); err != nil {
		writeErr(w, r, err)
		return
	}
	if err := s.DeleteUser(r.Context(), l.User.ID); err != nil {
		writeErr(w, r, err)
		return
	}
	s.clearSessionCookies(w)
	if cb != "" {
		http.Redirect(w, r, cb, http.StatusFound)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": "User deleted"})
}
