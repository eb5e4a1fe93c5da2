package providers

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("kick", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://id.kick.com/oauth/authorize",
			TokenURL:    "https://id.kick.com/oauth/token",
			UserInfoURL: "https://api.kick.com/public/v1/users",
			Scopes:      []string{"user:read"},
			PKCE:        true,
			CanRefresh:  true,
			Profile:     kickProfile,
		}
	})
}

// kickProfile reads the first user of /public/v1/users (the token's own).
func kickProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var ans struct {
		Data []map[string]any `json:"data"`
	}
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &ans); err != nil {
		return nil, err
	}
	if len(ans.Data) == 0 {
		return nil, errors.New("kick: no user")
	}
	prof := ans.Data[0]
	return &UserInfo{ID: str(prof, "user_id"), Name: str(prof, "name"), Email: str(prof, "email"),
		Image: optStr(str(prof, "profile_picture")), Data: prof}, nil
}
