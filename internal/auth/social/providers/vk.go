package providers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("vk", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://id.vk.com/authorize",
			TokenURL:    "https://id.vk.com/oauth2/auth",
			UserInfoURL: "https://id.vk.com/oauth2/user_info",
			Scopes:      []string{"email", "phone"},
			PKCE:        true,
			CanRefresh:  true,
			Profile:     vkProfile,
		}
	})
}

// vkProfile POSTs the access token and client id as a form (VK ID's user-info call); a user
// without an email gets no user info, as in Better Auth.
func vkProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	form := url.Values{"access_token": {tok.AccessToken}, "client_id": {p.ClientID}}
	if err := postFormJSON(ctx, c, p.UserInfoURL, form, &prof); err != nil {
		return nil, err
	}
	u := obj(prof, "user")
	if str(u, "email") == "" {
		return nil, errors.New("vk: no email")
	}
	return &UserInfo{ID: str(u, "user_id"), Name: strings.TrimSpace(str(u, "first_name") + " " + str(u, "last_name")),
		Email: str(u, "email"), Image: optStr(str(u, "avatar")), Data: prof}, nil
}
