package auth

import (
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// listSessions answers the caller's unexpired sessions (fresh session required, as Better Auth).
func (s *Service) listSessions(w http.ResponseWriter, r *http.Request) {
	l, ok := s.fresh(w, r)
	if !ok {
		return
	}
	all, err := s.store.SessionsByUser(r.Context(), l.user.ID)
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

// revokeSession ends one of the caller's own sessions by token.
func (s *Service) revokeSession(w http.ResponseWriter, r *http.Request) {
	l, ok := s.fresh(w, r)
	if !ok {
		return
	}
	var b struct {
		Token *string `json:"token"`
	}
	if err := decode(w, r, &b); err != nil {
		writeErr(w, r, err)
		return
	}
	var f fields
	f.required("token", b.Token)
	if err := f.err(); err != nil {
		writeErr(w, r, err)
		return
	}
	all, err := s.store.SessionsByUser(r.Context(), l.user.ID)
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
			httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
			return
		}
	}
	// Someone else's token, or none: the same answer, so tokens cannot be probed.
	writeErr(w, r, errSessionNotFound)
}

func (s *Service) revokeSessions(w http.ResponseWriter, r *http.Request) {
	s.revokeAll(w, r, false)
}

func (s *Service) revokeOtherSessions(w http.ResponseWriter, r *http.Request) {
	s.revokeAll(w, r, true)
}

func (s *Service) revokeAll(w http.ResponseWriter, r *http.Request, keepCurrent bool) {
	l, ok := s.fresh(w, r)
	if !ok {
		return
	}
	keep := ""
	if keepCurrent {
		keep = l.session.Token
	}
	if err := s.store.DeleteUserSessions(r.Context(), l.user.ID, keep); err != nil {
		writeErr(w, r, err)
		return
	}
	if !keepCurrent {
		s.clearSessionCookies(w)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
}

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
	l, ok := s.sensitive(w, r)
	if !ok {
		return
	}
	all, err := s.store.AccountsByUser(r.Context(), l.user.ID)
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

// unlinkAccount removes a linked sign-in method; the last one stays (fresh session required).
func (s *Service) unlinkAccount(w http.ResponseWriter, r *http.Request) {
	l, ok := s.fresh(w, r)
	if !ok {
		return
	}
	var b struct {
		ProviderID *string `json:"providerId"`
		AccountID  *string `json:"accountId"`
	}
	if err := decode(w, r, &b); err != nil {
		writeErr(w, r, err)
		return
	}
	var f fields
	f.required("providerId", b.ProviderID)
	if err := f.err(); err != nil {
		writeErr(w, r, err)
		return
	}
	all, err := s.store.AccountsByUser(r.Context(), l.user.ID)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	var target string
	for _, a := range all {
		if a.ProviderID == *b.ProviderID && (b.AccountID == nil || a.AccountID == *b.AccountID) {
			target = a.ID
		}
	}
	if target == "" {
		writeErr(w, r, errAccountNotFound)
		return
	}
	if len(all) == 1 {
		writeErr(w, r, errLastAccount)
		return
	}
	if err := s.store.DeleteAccount(r.Context(), l.user.ID, target); err != nil {
		writeErr(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
}

// accountInfo answers the user behind one of the caller's own accounts.
func (s *Service) accountInfo(w http.ResponseWriter, r *http.Request) {
	l, ok := s.sensitive(w, r)
	if !ok {
		return
	}
	accountID := r.URL.Query().Get("accountId")
	if r.Method == http.MethodPost {
		var b struct {
			AccountID *string `json:"accountId"`
		}
		if err := decode(w, r, &b); err != nil {
			writeErr(w, r, err)
			return
		}
		accountID = str(b.AccountID)
	}
	if accountID == "" {
		writeErr(w, r, httpx.BadRequest("[body.accountId] Invalid input: expected string, received undefined"))
		return
	}
	all, err := s.store.AccountsByUser(r.Context(), l.user.ID)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	for _, a := range all {
		if a.ID == accountID || a.AccountID == accountID {
			u := l.user
			httpx.WriteJSON(w, http.StatusOK, map[string]any{
				"user": map[string]any{"id": u.ID, "name": u.Name, "email": u.Email, "image": u.Image, "emailVerified": u.EmailVerified},
				"data": map[string]any{"providerId": a.ProviderID, "accountId": a.AccountID}})
			return
		}
	}
	writeErr(w, r, errAccountNotFound)
}
