package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("tiktok", func(config.Social) *Provider {
		return &Provider{
			AuthURL:      "https://www.tiktok.com/v2/auth/authorize",
			TokenURL:     "https://open.tiktokapis.com/v2/oauth/token/",
			UserInfoURL:  "https://open.tiktokapis.com/v2/user/info/",
			Scopes:       []string{"user.info.profile"},
			ScopeSep:     ",",
			ClientIDName: "client_key", // TikTok's name for the client id, in the URL and the exchange
			CanRefresh:   true,
			Profile:      tiktokProfile,
		}
	})
}

// tiktokProfile reads the fields Better Auth asks for; TikTok gives no email, so the account
// gets a placeholder unless the answer carries one.
func tiktokProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL+"?fields=open_id,avatar_large_url,display_name,username", tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	u := obj(obj(prof, "data"), "user")
	id := str(u, "open_id")
	return &UserInfo{ID: id, Name: firstNonEmpty(str(u, "display_name"), str(u, "username")),
		Email: firstNonEmpty(str(u, "email"), placeholderEmail(id, "tiktok")), Image: optStr(str(u, "avatar_large_url")), Data: prof}, nil
}
