package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("salesforce", func(cfg config.Social) *Provider {
		base := "https://login.salesforce.com/services/oauth2"
		if cfg.SalesforceEnv == "sandbox" {
			base = "https://test.salesforce.com/services/oauth2"
		}
		return &Provider{
			AuthURL:     base + "/authorize",
			TokenURL:    base + "/token",
			UserInfoURL: base + "/userinfo",
			Scopes:      []string{"openid", "email", "profile"},
			PKCE:        true,
			CanRefresh:  true,
			Profile:     salesforceProfile,
		}
	})
}

func salesforceProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	photos := obj(prof, "photos")
	return &UserInfo{ID: str(prof, "user_id"), Name: str(prof, "name"), Email: str(prof, "email"),
		Image: optStr(firstNonEmpty(str(photos, "picture"), str(photos, "thumbnail"))), EmailVerified: boolean(prof, "email_verified"), Data: prof}, nil
}
