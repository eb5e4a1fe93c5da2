package providers

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("naver", func(config.Social) *Provider {
		return &Provider{
			AuthURL:     "https://nid.naver.com/oauth2.0/authorize",
			TokenURL:    "https://nid.naver.com/oauth2.0/token",
			UserInfoURL: "https://openapi.naver.com/v1/nid/me",
			Scopes:      []string{"profile", "email"},
			CanRefresh:  true,
			Profile:     naverProfile,
		}
	})
}

// naverProfile reads /v1/nid/me; an answer whose resultcode is not "00" is a failure.
func naverProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	if str(prof, "resultcode") != "00" {
		return nil, errors.New("naver: " + str(prof, "message"))
	}
	r := obj(prof, "response")
	return &UserInfo{ID: str(r, "id"), Name: firstNonEmpty(str(r, "name"), str(r, "nickname")), Email: str(r, "email"),
		Image: optStr(str(r, "profile_image")), Data: prof}, nil
}
