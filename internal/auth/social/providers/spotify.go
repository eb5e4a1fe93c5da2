package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("spotify", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://accounts.spotify.com/authorize",
			TokenURL:    "https://accounts.spotify.com/api/token",
			UserInfoURL: "https://api.spotify.com/v1/me",
			Scopes:      []string{"user-read-email"},
			PKCE:        true,
			CanRefresh:  true,
			Profile:     spotifyProfile,
		}
	})
}

// spotifyProfile reads /v1/me; Spotify never says the email is verified.
func spotifyProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	var image string
	if imgs, _ := prof["images"].([]any); len(imgs) > 0 {
		if first, ok := imgs[0].(map[string]any); ok {
			image = str(first, "url")
		}
	}
	return &UserInfo{ID: str(prof, "id"), Name: str(prof, "display_name"), Email: str(prof, "email"), Image: optStr(image), Data: prof}, nil
}
