package auth

import (
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// AccountJSON is a linked sign-in method as list-accounts returns it.
type AccountJSON struct {
	ID         string   `json:"id"`
	ProviderID string   `json:"providerId"`
	AccountID  string   `json:"accountId"`
	UserID     string   `json:"userId"`
	CreatedAt  isoTime  `json:"createdAt"`
	UpdatedAt  isoTime  `json:"updatedAt"`
	Scopes     []string `json:"scopes"`
}

func (s *Service) listAccounts(w http.ResponseWriter, r *http.Request) {
	l, ok := s.RequireSensitive(w, r)
	if !ok {
		return
	}
	all, err := s.store.AccountsByUser(r.Context(), l.User.ID)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	out := make([]AccountJSON, 0, len(all))
	for _, a := range all {
		scopes := []string{}
		if a.Scope != nil {
			for _, sc := range strings.Split(*a.Scope, ",") {
				if sc = strings.TrimSpace(sc); sc != "" {
					scopes = append(scopes, sc)
				}
			}
		}
		out = append(out, AccountJSON{ID: a.ID, ProviderID: a.ProviderID, AccountID: a.AccountID, UserID: a.UserID,
			CreatedAt: isoTime(a.CreatedAt), UpdatedAt: isoTime(a.UpdatedAt), Scopes: scopes})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
