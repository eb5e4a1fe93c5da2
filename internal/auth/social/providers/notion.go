package providers

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("notion", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://api.notion.com/v1/oauth/authorize",
			TokenURL:    "https://api.notion.com/v1/oauth/token",
			UserInfoURL: "https://api.notion.com/v1/users/me",
			Params:      map[string]string{"owner": "user"},
			LoginHint:   true,
			BasicAuth:   true,
			CanRefresh:  true,
			Profile:     notionProfile,
		}
	})
}

// notionProfile reads the bot user and maps its owner, the person who authorized it.
func notionProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof, "Notion-Version", "2022-06-28"); err != nil {
		return nil, err
	}
	u := obj(obj(obj(prof, "bot"), "owner"), "user")
	if u == nil {
		return nil, errors.New("notion: no owner user")
	}
	return &UserInfo{ID: str(u, "id"), Name: str(u, "name"), Email: str(obj(u, "person"), "email"),
		Image: optStr(str(u, "avatar_url")), Data: u}, nil
}
