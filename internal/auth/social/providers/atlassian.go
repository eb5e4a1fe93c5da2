package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("atlassian", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://auth.atlassian.com/authorize",
			TokenURL:    "https://auth.atlassian.com/oauth/token",
			UserInfoURL: "https://api.atlassian.com/me",
			Scopes:      []string{"read:jira-user", "offline_access"},
			Params:      map[string]string{"audience": "api.atlassian.com"},
			PKCE:        true,
			CanRefresh:  true,
			Profile:     atlassianProfile,
		}
	})
}

// atlassianProfile reads /me; Atlassian never says the email is verified.
func atlassianProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	return &UserInfo{ID: str(prof, "account_id"), Name: str(prof, "name"), Email: str(prof, "email"),
		Image: optStr(str(prof, "picture")), Data: prof}, nil
}
