package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("twitter", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://x.com/i/oauth2/authorize",
			TokenURL:    "https://api.x.com/2/oauth2/token",
			UserInfoURL: "https://api.x.com/2/users/me",
			Scopes:      []string{"users.read", "tweet.read", "offline.access", "users.email"},
			PKCE:        true,
			BasicAuth:   true,
			CanRefresh:  true,
			Profile:     twitterProfile,
		}
	})
}

// twitterProfile reads /2/users/me with the profile image, then asks for the confirmed email
// (an answer with one makes it verified); without one the account gets a placeholder address.
func twitterProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL+"?user.fields=profile_image_url", tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	d := obj(prof, "data")
	var mail map[string]any
	email, verified := str(d, "email"), false
	if getJSON(ctx, c, p.UserInfoURL+"?user.fields=confirmed_email", tok.AccessToken, &mail) == nil {
		if e := str(obj(mail, "data"), "confirmed_email"); e != "" {
			email, verified = e, true
		}
	}
	return &UserInfo{ID: str(d, "id"), Name: str(d, "name"), Email: firstNonEmpty(email, placeholderEmail(str(d, "id"), "twitter")),
		Image: optStr(str(d, "profile_image_url")), EmailVerified: verified, Data: prof}, nil
}
