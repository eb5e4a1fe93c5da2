package providers

import "github.com/sellertrends/sellertrends/internal/config"

func init() {
	register("huggingface", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://huggingface.co/oauth/authorize",
			TokenURL:    "https://huggingface.co/oauth/token",
			UserInfoURL: "https://huggingface.co/oauth/userinfo",
			Scopes:      []string{"openid", "profile", "email"},
			PKCE:        true,
			CanRefresh:  true,
			Profile: oidcProfile("sub", func(m map[string]any) string {
				return firstNonEmpty(str(m, "name"), str(m, "preferred_username"))
			}, field("picture")),
		}
	})
}
