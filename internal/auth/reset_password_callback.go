package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/store"
)

// resetPasswordCallback is the mailed link: it checks the token and redirects to the app's
// page with ?token=, or with ?error=INVALID_TOKEN.
func (s *Service) resetPasswordCallback(w http.ResponseWriter, r *http.Request) {
	if err := RequiredQuery(r.URL.Query(), "callbackURL"); err != nil {
		writeErr(w, r, err)
		return
	}
	token, callbackURL := r.PathValue("token"), r.URL.Query().Get("callbackURL")
	if !s.SafeURL(callbackURL) || len(callbackURL) > maxURLLen {
		writeErr(w, r, ErrInvalidCallbackURL)
		return
	}
	if callbackURL == "" {
		http.Redirect(w, r, s.cfg.BaseURL.String()+BasePath+"/error?error=INVALID_TOKEN", http.StatusFound)
		return
	}
	target := s.absoluteURL(callbackURL)
	if v, err := s.validResetToken(r, token); err != nil || v == nil {
		http.Redirect(w, r, appendQuery(target, "error", "INVALID_TOKEN"), http.StatusFound)
		return
	}
	http.Redirect(w, r, appendQuery(target, "token", token), http.StatusFound)
}

func (s *Service) validResetToken(r *http.Request, token string) (*store.Verification, error) {
	if token == "" || len(token) > 64 || strings.ContainsAny(token, ":/") {
		return nil, nil
	}
	v, err := s.store.VerificationByIdentifier(r.Context(), "reset-password:"+token)
	if errors.Is(err, store.ErrNotFound) || (err == nil && v.ExpiresAt.Before(s.now())) {
		return nil, nil
	}
	return v, err
}
