package auth

import (
	"net/http"
)

// unlinkAccount removes a linked sign-in method; the last one stays (fresh session required).
func (s *Service) unlinkAccount(w http.ResponseWriter, r *http.Request) {
	l, ok := s.RequireFresh(w, r)
	if !ok {
		return
	}
	var b struct {
		ProviderID *string `json:"providerId"`
		AccountID  *string `json:"accountId"`
	}
	if !ReadJSON(w, r, &b, func() error { return Required("providerId", b.ProviderID) }) {
		return
	}
	all, err := s.store.AccountsByUser(r.Context(), l.User.ID)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	// As Better Auth: the last account is refused before it is looked up, so the answer does
	// not tell which providers the user has.
	if len(all) == 1 {
		writeErr(w, r, ErrLastAccount)
		return
	}
	var target string
	for _, a := range all {
		if a.ProviderID == *b.ProviderID && (b.AccountID == nil || a.AccountID == *b.AccountID) {
			target = a.ID
		}
	}
	if target == "" {
		writeErr(w, r, ErrAccountNotFound)
		return
	}
	if err := s.store.DeleteAccount(r.Context(), l.User.ID, target); err != nil {
		writeErr(w, r, err)
		return
	}
	WriteStatus(w)
}
