package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("dropbox", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://www.dropbox.com/oauth2/authorize",
			TokenURL:    "https://api.dropboxapi.com/oauth2/token",
			UserInfoURL: "https://api.dropboxapi.com/2/users/get_current_account",
			Scopes:      []string{"account_info.read"},
			PKCE:        true,
			CanRefresh:  true,
			Profile:     dropboxProfile,
		}
	})
}

// dropboxProfile POSTs get_current_account, Dropbox's user-info call.
func dropboxProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := fetchJSON(ctx, c, http.MethodPost, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	name, _ := prof["name"].(map[string]any)
	return &UserInfo{ID: str(prof, "account_id"), Name: str(name, "display_name"), Email: str(prof, "email"),
		Image: optStr(str(prof, "profile_photo_url")), EmailVerified: boolean(prof, "email_verified"), Data: prof}, nil
}
