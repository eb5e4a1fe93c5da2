package providers

import (
	"context"
	"net/http"
	"strings"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("reddit", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://www.reddit.com/api/v1/authorize",
			TokenURL:    "https://www.reddit.com/api/v1/access_token",
			UserInfoURL: "https://oauth.reddit.com/api/v1/me",
			Scopes:      []string{"identity"},
			BasicAuth:   true,
			// Reddit refuses generic user agents; Better Auth sends this one.
			TokenHeaders: map[string]string{"User-Agent": "better-auth", "Accept": "text/plain"},
			CanRefresh:   true,
			Profile:      redditProfile,
		}
	})
}

// redditProfile reads /api/v1/me (Reddit wants a User-Agent); Reddit gives no email, so the
// account gets a placeholder address.
func redditProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof, "User-Agent", "better-auth"); err != nil {
		return nil, err
	}
	img, _, _ := strings.Cut(str(prof, "icon_img"), "?")
	return &UserInfo{ID: str(prof, "id"), Name: str(prof, "name"), Email: placeholderEmail(str(prof, "id"), "reddit"),
		Image: optStr(img), Data: prof}, nil
}
