package social

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/social/providers"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

var (
	errNoValidToken   = httpx.NewError(http.StatusBadRequest, "FAILED_TO_GET_ACCESS_TOKEN", "Failed to get a valid access token")
	errRefreshFailed  = httpx.NewError(http.StatusBadRequest, "FAILED_TO_REFRESH_ACCESS_TOKEN", "Failed to refresh access token")
	errAccountMissing = httpx.NewError(http.StatusBadRequest, "ACCOUNT_NOT_FOUND", "Account not found")
	errNoRefreshToken = httpx.NewError(http.StatusBadRequest, "REFRESH_TOKEN_NOT_FOUND", "Refresh token not found")
)

func errNotSupported(id string) error {
	return httpx.NewError(http.StatusBadRequest, "PROVIDER_NOT_SUPPORTED", fmt.Sprintf("Provider %s is not supported.", id))
}

func errNoRefresh(id string) error {
	return httpx.NewError(http.StatusBadRequest, "PROVIDER_REFRESH_NOT_SUPPORTED", fmt.Sprintf("Provider %s does not support token refreshing.", id))
}

type tokenBody struct {
	ProviderID *string `json:"providerId"`
	AccountID  *string `json:"accountId"`
	UserID     *string `json:"userId"`
}

// tokenAccount resolves the caller's account of the requested provider. Over HTTP the session
// decides whose account it is; a userId alone (Better Auth's server-side call) is not enough.
func (p *plugin) tokenAccount(w http.ResponseWriter, r *http.Request) (*providers.Provider, *store.Account, bool) {
	var b tokenBody
	if !auth.ReadJSON(w, r, &b, func() error {
		var f auth.Fields
		f.Required("providerId", b.ProviderID)
		f.MaxLen("accountId", b.AccountID, 255)
		f.MaxLen("userId", b.UserID, 255)
		return f.Err()
	}) {
		return nil, nil, false
	}
	cur, ok := p.s.RequireUser(w, r)
	if !ok {
		return nil, nil, false
	}
	pr := p.providers[*b.ProviderID]
	if pr == nil {
		auth.WriteError(w, r, errNotSupported(*b.ProviderID))
		return nil, nil, false
	}
	all, err := p.s.Store().AccountsByUser(r.Context(), cur.User.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return nil, nil, false
	}
	for _, a := range all {
		if a.ProviderID == pr.ID && (b.AccountID == nil || a.ID == *b.AccountID || a.AccountID == *b.AccountID) {
			return pr, a, true
		}
	}
	auth.WriteError(w, r, errAccountMissing)
	return nil, nil, false
}

// getAccessToken answers the stored access token, refreshed first when it expires within 5 s
// and a refresh token exists.
func (p *plugin) getAccessToken(w http.ResponseWriter, r *http.Request) {
	pr, acc, ok := p.tokenAccount(w, r)
	if !ok {
		return
	}
	acc, err := p.validAccount(r.Context(), pr, acc)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"accessToken": p.open(acc.AccessToken), "accessTokenExpiresAt": acc.AccessTokenExpiresAt,
		"scopes": scopes(acc.Scope), "idToken": optional(p.open(acc.IDToken))})
}

// refreshToken refreshes the account's tokens now and answers them.
func (p *plugin) refreshToken(w http.ResponseWriter, r *http.Request) {
	pr, acc, ok := p.tokenAccount(w, r)
	if !ok {
		return
	}
	if !pr.CanRefresh {
		auth.WriteError(w, r, errNoRefresh(pr.ID))
		return
	}
	if acc.RefreshToken == nil {
		auth.WriteError(w, r, errNoRefreshToken)
		return
	}
	fresh, err := p.refresh(r.Context(), pr, acc)
	if err != nil {
		auth.WriteError(w, r, errRefreshFailed)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"accessToken": p.open(fresh.AccessToken), "refreshToken": optional(p.open(fresh.RefreshToken)),
		"accessTokenExpiresAt": fresh.AccessTokenExpiresAt, "refreshTokenExpiresAt": fresh.RefreshTokenExpiresAt,
		"scope": fresh.Scope, "idToken": optional(p.open(fresh.IDToken)), "providerId": fresh.ProviderID, "accountId": fresh.AccountID})
}

// refresh runs the refresh_token grant and stores the answer.
func (p *plugin) refresh(ctx context.Context, pr *providers.Provider, acc *store.Account) (*store.Account, error) {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, pr.TokenClient(p.client))
	old := &oauth2.Token{RefreshToken: p.open(acc.RefreshToken), Expiry: time.Unix(1, 0)} // expired: forces the grant
	tok, err := pr.OAuth2(p.redirectURI(pr.ID), nil).TokenSource(ctx, old).Token()
	if err != nil {
		return nil, err
	}
	if tok.RefreshToken == old.RefreshToken {
		tok.RefreshToken = "" // x/oauth2 carries the old one over; keep the stored value untouched
	}
	if err := p.updateTokens(ctx, acc.ID, tok); err != nil {
		return nil, err
	}
	all, err := p.s.Store().AccountsByUser(ctx, acc.UserID)
	if err != nil {
		return nil, err
	}
	for _, a := range all {
		if a.ID == acc.ID {
			return a, nil
		}
	}
	return nil, errors.New("account vanished during refresh")
}

func scopes(s *string) []string {
	if s == nil || *s == "" {
		return []string{}
	}
	return strings.Split(*s, ",")
}

func optional(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// validAccount is the account with an access token that does not expire within 5 s: refreshed
// first when it would and a refresh token exists.
func (p *plugin) validAccount(ctx context.Context, pr *providers.Provider, acc *store.Account) (*store.Account, error) {
	if acc.RefreshToken != nil && acc.AccessTokenExpiresAt != nil && pr.CanRefresh &&
		acc.AccessTokenExpiresAt.Sub(p.s.Now()) < refreshThreshold {
		fresh, err := p.refresh(ctx, pr, acc)
		if err != nil {
			return nil, errNoValidToken
		}
		acc = fresh
	}
	if acc.AccessToken == nil {
		return nil, errNoValidToken
	}
	return acc, nil
}
