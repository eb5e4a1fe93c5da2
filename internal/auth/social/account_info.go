package social

import (
	"context"
	"log/slog"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

var (
	errNoAccessToken = httpx.NewError(http.StatusBadRequest, "ACCESS_TOKEN_NOT_FOUND", "Access token not found")
)

// accountInfo answers /account-info for a social account: the provider's user info now, read
// with a valid access token (refreshed first when it expires within 5 s), as Better Auth does.
func (p *plugin) accountInfo(ctx context.Context, acc *store.Account) (map[string]any, error) {
	pr := p.providers[acc.ProviderID]
	if pr == nil {
		return nil, auth.ErrProviderNotConfigured
	}
	acc, err := p.validAccount(ctx, pr, acc)
	if err != nil {
		return nil, err
	}
	access := p.open(acc.AccessToken)
	if access == "" {
		return nil, errNoAccessToken
	}
	tok := &oauth2.Token{AccessToken: access, RefreshToken: p.open(acc.RefreshToken)}
	if id := p.open(acc.IDToken); id != "" {
		tok = tok.WithExtra(map[string]any{"id_token": id})
	}
	info, err := pr.Profile(context.WithValue(ctx, oauth2.HTTPClient, p.client), p.client, pr, tok)
	if err != nil || info == nil {
		slog.Warn("account info: provider user info failed", "provider", pr.ID, "error", err)
		return nil, errNoUserInfo
	}
	return map[string]any{
		"user":    map[string]any{"id": info.ID, "name": info.Name, "email": info.Email, "image": info.Image, "emailVerified": info.EmailVerified},
		"data":    info.Data,
		"account": map[string]any{"id": acc.ID, "providerId": acc.ProviderID, "accountId": acc.AccountID},
	}, nil
}
