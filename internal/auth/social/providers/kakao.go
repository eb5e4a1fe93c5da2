package providers

import (
	"context"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("kakao", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://kauth.kakao.com/oauth/authorize",
			TokenURL:    "https://kauth.kakao.com/oauth/token",
			UserInfoURL: "https://kapi.kakao.com/v2/user/me",
			Scopes:      []string{"account_email", "profile_image", "profile_nickname"},
			LoginHint:   true,
			CanRefresh:  true,
			Profile:     kakaoProfile,
		}
	})
}

// kakaoProfile reads /v2/user/me: verified only when the address is both valid and verified.
func kakaoProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	acc := obj(prof, "kakao_account")
	kp := obj(acc, "profile")
	return &UserInfo{ID: str(prof, "id"), Name: firstNonEmpty(str(kp, "nickname"), str(acc, "name")), Email: str(acc, "email"),
		Image:         optStr(firstNonEmpty(str(kp, "profile_image_url"), str(kp, "thumbnail_image_url"))),
		EmailVerified: boolean(acc, "is_email_valid") && boolean(acc, "is_email_verified"), Data: prof}, nil
}
