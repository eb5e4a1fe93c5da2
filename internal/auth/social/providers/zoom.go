package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("zoom", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://zoom.us/oauth/authorize",
			TokenURL:    "https://zoom.us/oauth/token",
			UserInfoURL: "https://api.zoom.us/v2/users/me",
			NoScopes:    true, // Zoom's scopes are set on the app, not asked for
			PKCE:        true,
			CanRefresh:  true,
			Profile:     zoomProfile,
		}
	})
}

// zoomProfile reads /v2/users/me; `verified` is 1 for a verified email.
func zoomProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	v := str(prof, "verified")
	return &UserInfo{ID: str(prof, "id"), Name: str(prof, "display_name"), Email: str(prof, "email"),
		Image: optStr(str(prof, "pic_url")), EmailVerified: v != "" && v != "0" || boolean(prof, "verified"), Data: prof}, nil
}
