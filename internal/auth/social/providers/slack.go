package providers

import "github.com/sellertrends/sellertrends/internal/config"

func init() {
	register("slack", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://slack.com/openid/connect/authorize",
			TokenURL:    "https://slack.com/api/openid.connect.token",
			UserInfoURL: "https://slack.com/api/openid.connect.userInfo",
			Scopes:      []string{"openid", "profile", "email"},
			CanRefresh:  true,
			Profile: oidcProfile("https://slack.com/user_id", field("name"), func(m map[string]any) string {
				return firstNonEmpty(str(m, "picture"), str(m, "https://slack.com/user_image_512"))
			}),
		}
	})
}
