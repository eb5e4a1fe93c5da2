package providers

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("paypal", func(cfg config.Social) *Provider {
		web, api := "https://www.sandbox.paypal.com", "https://api-m.sandbox.paypal.com"
		if cfg.PaypalEnvironment == "live" {
			web, api = "https://www.paypal.com", "https://api-m.paypal.com"
		}
		return &Provider{
			AuthURL:     web + "/signin/authorize",
			TokenURL:    api + "/v1/oauth2/token",
			UserInfoURL: api + "/v1/identity/oauth2/userinfo",
			NoScopes:    true, // PayPal's scopes are set on the app
			PKCE:        true,
			BasicAuth:   true,
			CanRefresh:  true,
			Profile:     paypalProfile,
		}
	})
}

// paypalProfile reads the user info; when the token answer has an id token, its subject must
// be the same user.
func paypalProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL+"?schema=paypalv1.1", tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	if raw, _ := tok.Extra("id_token").(string); raw != "" {
		cl, err := idTokenClaims(tok)
		if err != nil {
			return nil, err
		}
		if sub := str(cl, "sub"); sub == "" || sub != firstNonEmpty(str(prof, "sub"), str(prof, "user_id")) {
			return nil, errors.New("paypal: user info subject is not the id token's")
		}
	}
	return &UserInfo{ID: str(prof, "user_id"), Name: str(prof, "name"), Email: str(prof, "email"),
		Image: optStr(str(prof, "picture")), EmailVerified: boolean(prof, "email_verified"), Data: prof}, nil
}
