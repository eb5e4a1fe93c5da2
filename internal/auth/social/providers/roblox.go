package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("roblox", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://apis.roblox.com/oauth/v1/authorize",
			TokenURL:    "https://apis.roblox.com/oauth/v1/token",
			UserInfoURL: "https://apis.roblox.com/oauth/v1/userinfo",
			Scopes:      []string{"openid", "profile"},
			Params:      map[string]string{"prompt": "select_account consent"},
			CanRefresh:  true,
			Profile:     robloxProfile,
		}
	})
}

// robloxProfile reads the user info; Roblox gives no email, so the account gets a placeholder.
func robloxProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	return &UserInfo{ID: str(prof, "sub"), Name: firstNonEmpty(str(prof, "nickname"), str(prof, "preferred_username")),
		Email: placeholderEmail(str(prof, "sub"), "roblox"), Image: optStr(str(prof, "picture")), Data: prof}, nil
}
