package auth

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// accountInfo answers the user behind one of the caller's own accounts; for a social account the
// social plugin answers the provider's live user info (SetAccountInfo).
func (s *Service) accountInfo(w http.ResponseWriter, r *http.Request) {
	l, ok := s.RequireSensitive(w, r)
	if !ok {
		return
	}
	accountID := r.URL.Query().Get("accountId")
	if r.Method == http.MethodPost {
		var b struct {
			AccountID *string `json:"accountId"`
		}
		if !ReadJSON(w, r, &b, nil) {
			return
		}
		accountID = str(b.AccountID)
	}
	if accountID == "" {
		writeErr(w, r, httpx.BadRequest("[body.accountId] Invalid input: expected string, received undefined"))
		return
	}
	all, err := s.store.AccountsByUser(r.Context(), l.User.ID)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	for _, a := range all {
		if a.ID == accountID || a.AccountID == accountID {
			if a.ProviderID == "credential" { // Better Auth asks the provider; a password has none
				writeErr(w, r, ErrProviderNotConfigured)
				return
			}
			if s.accountInfoHook != nil {
				ans, err := s.accountInfoHook(r.Context(), a)
				if err != nil {
					writeErr(w, r, err)
					return
				}
				httpx.WriteJSON(w, http.StatusOK, ans)
				return
			}
			u := l.User
			httpx.WriteJSON(w, http.StatusOK, map[string]any{
				"user": map[string]any{"id": u.ID, "name": u.Name, "email": u.Email, "image": u.Image, "emailVerified": u.EmailVerified},
				"data": map[string]any{"providerId": a.ProviderID, "accountId": a.AccountID}})
			return
		}
	}
	writeErr(w, r, ErrAccountNotFound)
}
