package providers

import "github.com/sellertrends/sellertrends/internal/config"

func init() {
	register("linkedin", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://www.linkedin.com/oauth/v2/authorization",
			TokenURL:    "https://www.linkedin.com/oauth/v2/accessToken",
			UserInfoURL: "https://api.linkedin.com/v2/userinfo",
			Scopes:      []string{"profile", "email", "openid"},
			LoginHint:   true,
			CanRefresh:  true,
			Profile:     oidcProfile("sub", field("name"), field("picture")),
		}
	})
}
