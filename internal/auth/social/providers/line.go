package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("line", func(cfg config.Social) *Provider {
		return &Provider{
			TokenInfoURL: "https://api.line.me/oauth2/v2.1/verify",
			IDToken:      &IDToken{VerifyURL: true, Audience: []string{cfg.Providers["line"].ClientID}},
			AuthURL:      "https://access.line.me/oauth2/v2.1/authorize",
			TokenURL:     "https://api.line.me/oauth2/v2.1/token",
			UserInfoURL:  "https://api.line.me/oauth2/v2.1/userinfo",
			Scopes:       []string{"openid", "profile", "email"},
			PKCE:         true,
			LoginHint:    true,
			CanRefresh:   true,
			Profile:      lineProfile,
		}
	})
}

// lineProfile maps the id token's claims, or the user-info answer without one; LINE never says
// the email is verified.
func lineProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	prof, err := idTokenClaims(tok)
	if err != nil {
		prof = nil
		if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
			return nil, err
		}
	}
	return &UserInfo{ID: str(prof, "sub"), Name: str(prof, "name"), Email: str(prof, "email"), Image: optStr(str(prof, "picture")), Data: prof}, nil
}
