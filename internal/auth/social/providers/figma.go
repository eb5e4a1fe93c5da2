package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("figma", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://www.figma.com/oauth",
			TokenURL:    "https://api.figma.com/v1/oauth/token",
			UserInfoURL: "https://api.figma.com/v1/me",
			Scopes:      []string{"current_user:read"},
			PKCE:        true,
			BasicAuth:   true,
			CanRefresh:  true,
			Profile:     figmaProfile,
		}
	})
}

func figmaProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	return &UserInfo{ID: str(prof, "id"), Name: str(prof, "handle"), Email: str(prof, "email"), Image: optStr(str(prof, "img_url")), Data: prof}, nil
}
