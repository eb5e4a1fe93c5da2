package providers

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("linear", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://linear.app/oauth/authorize",
			TokenURL:    "https://api.linear.app/oauth/token",
			UserInfoURL: "https://api.linear.app/graphql",
			Scopes:      []string{"read"},
			LoginHint:   true,
			CanRefresh:  true,
			Profile:     linearProfile,
		}
	})
}

const linearViewer = `query { viewer { id name email avatarUrl active createdAt updatedAt } }`

// linearProfile asks the GraphQL API for the viewer.
func linearProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var ans struct {
		Data struct {
			Viewer map[string]any `json:"viewer"`
		} `json:"data"`
	}
	if err := postJSON(ctx, c, p.UserInfoURL, tok.AccessToken, map[string]string{"query": linearViewer}, &ans); err != nil {
		return nil, err
	}
	v := ans.Data.Viewer
	if v == nil {
		return nil, errors.New("linear: no viewer")
	}
	return &UserInfo{ID: str(v, "id"), Name: str(v, "name"), Email: str(v, "email"), Image: optStr(str(v, "avatarUrl")), Data: v}, nil
}
