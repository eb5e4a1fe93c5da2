package providers

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("google", func(cfg config.Social) *Provider {
		return &Provider{
			TokenInfoURL: "https://oauth2.googleapis.com/tokeninfo",
			IDToken:      &IDToken{TokenInfo: true, Issuer: "https://accounts.google.com", Audience: []string{cfg.Providers["google"].ClientID}},
			AuthURL:      "https://accounts.google.com/o/oauth2/v2/auth",
			TokenURL:     "https://oauth2.googleapis.com/token",
			Scopes:       []string{"email", "profile", "openid"},
			Params:       map[string]string{"include_granted_scopes": "true"},
			LoginHint:    true,
			PKCE:         true,
			CanRefresh:   true,
			Profile:      googleProfile,
		}
	})
}

// googleProfile maps the id token's claims, as Better Auth does.
func googleProfile(_ context.Context, _ *http.Client, _ *Provider, tok *oauth2.Token) (*UserInfo, error) {
	c, err := idTokenClaims(tok)
	if err != nil {
		return nil, err
	}
	if str(c, "sub") == "" {
		return nil, errors.New("google: id token without sub")
	}
	return &UserInfo{ID: str(c, "sub"), Name: str(c, "name"), Email: str(c, "email"), Image: optStr(str(c, "picture")),
		EmailVerified: boolean(c, "email_verified"), Data: c}, nil
}
