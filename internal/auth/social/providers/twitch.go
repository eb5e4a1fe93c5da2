package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("twitch", func(config.Social) *Provider {
		return &Provider{
			AuthURL:  "https://id.twitch.tv/oauth2/authorize",
			TokenURL: "https://id.twitch.tv/oauth2/token",
			Scopes:   []string{"user:read:email", "openid"},
			// The id token carries only the claims asked for.
			Params:     map[string]string{"claims": `{"id_token":{"email":null,"email_verified":null,"preferred_username":null,"picture":null}}`},
			CanRefresh: true,
			Profile:    twitchProfile,
		}
	})
}

// twitchProfile maps the id token's claims.
func twitchProfile(_ context.Context, _ *http.Client, _ *Provider, tok *oauth2.Token) (*UserInfo, error) {
	cl, err := idTokenClaims(tok)
	if err != nil {
		return nil, err
	}
	return &UserInfo{ID: str(cl, "sub"), Name: str(cl, "preferred_username"), Email: str(cl, "email"),
		Image: optStr(str(cl, "picture")), EmailVerified: boolean(cl, "email_verified"), Data: cl}, nil
}
