package providers

import (
	"context"
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
			PKCE:        true,
			CanRefresh:  true,
			Profile:     gitlabProfile,
		}
	})
}

// gitlabProfile reads /api/v4/user; GitLab reports a confirmed email as confirmed_at.
func gitlabProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	verified := boolean(prof, "email_verified") || str(prof, "confirmed_at") != ""
	return &UserInfo{ID: str(prof, "id"), Name: firstNonEmpty(str(prof, "name"), str(prof, "username")), Email: str(prof, "email"),
		Image: optStr(str(prof, "avatar_url")), EmailVerified: verified, Data: prof}, nil
}
