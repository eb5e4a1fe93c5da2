package providers

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("gitlab", func(cfg config.Social) *Provider {
		return &Provider{
			AuthURL:     cfg.GitlabIssuer + "/oauth/authorize",
			TokenURL:    cfg.GitlabIssuer + "/oauth/token",
			UserInfoURL: cfg.GitlabIssuer + "/api/v4/user",
			Scopes:      []string{"read_user"},
			LoginHint:   true,
			PKCE:        true,
			CanRefresh:  true,
			Profile:     gitlabProfile,
		}
	})
}

// gitlabProfile reads /api/v4/user; blocked or locked users get no user info.
func gitlabProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	if str(prof, "state") != "active" || boolean(prof, "locked") {
		return nil, errors.New("gitlab: user is not active")
	}
	return &UserInfo{ID: str(prof, "id"), Name: firstNonEmpty(str(prof, "name"), str(prof, "username")), Email: str(prof, "email"),
		Image: optStr(str(prof, "avatar_url")), EmailVerified: boolean(prof, "email_verified"), Data: prof}, nil
}
