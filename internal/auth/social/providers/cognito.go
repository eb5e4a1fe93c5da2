package providers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("cognito", func(cfg config.Social) *Provider {
		domain := strings.TrimPrefix(strings.TrimPrefix(cfg.CognitoDomain, "https://"), "http://")
		base := "https://" + strings.TrimRight(domain, "/") + "/oauth2"
		issuer := "https://cognito-idp." + cfg.CognitoRegion + ".amazonaws.com/" + cfg.CognitoUserPoolID
		return &Provider{
			IDToken: &IDToken{JWKSURL: issuer + "/.well-known/jwks.json", Issuer: issuer, Audience: []string{cfg.Providers["cognito"].ClientID},
				Algorithms: []string{"RS256"}, MaxAge: time.Hour},
			AuthURL:     base + "/authorize",
			TokenURL:    base + "/token",
			UserInfoURL: base + "/userinfo",
			Scopes:      []string{"openid", "profile", "email"},
			Scope20:     true,
			PKCE:        true,
			CanRefresh:  true,
			Profile:     cognitoProfile,
		}
	})
}

// cognitoProfile maps the id token's claims, or the user-info answer when the token answer
// has no id token.
func cognitoProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	prof, err := idTokenClaims(tok)
	if err != nil {
		prof = nil
		if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
			return nil, err
		}
	}
	name := firstNonEmpty(str(prof, "name"), str(prof, "given_name"), str(prof, "username"))
	prof["name"] = name
	return &UserInfo{ID: str(prof, "sub"), Name: name, Email: str(prof, "email"), Image: optStr(str(prof, "picture")),
		EmailVerified: stringBool(prof, "email_verified"), Data: prof}, nil
}
