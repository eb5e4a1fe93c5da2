package providers

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("facebook", func(cfg config.Social) *Provider {
		return &Provider{
			IDToken: &IDToken{JWKSURL: "https://limited.facebook.com/.well-known/oauth/openid/jwks/", Issuer: "https://www.facebook.com",
				Audience: []string{cfg.Providers["facebook"].ClientID}, Algorithms: []string{"RS256"}, AllowOpaque: true},
			AuthURL:      "https://www.facebook.com/v24.0/dialog/oauth",
			TokenURL:     "https://graph.facebook.com/v24.0/oauth/access_token",
			UserInfoURL:  "https://graph.facebook.com/me",
			TokenInfoURL: "https://graph.facebook.com/debug_token",
			Scopes:       []string{"email", "public_profile"},
			LoginHint:    true,
			CanRefresh:   true,
			Profile:      facebookProfile,
		}
	})
}

// facebookProfile maps a limited-login id token's claims when the answer has one; otherwise it
// checks the access token was issued to this app (debug_token: Graph's /me answers for a token
// of any app) and reads /me for the same user.
func facebookProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	if cl, err := idTokenClaims(tok); err == nil {
		return &UserInfo{ID: str(cl, "sub"), Name: str(cl, "name"), Email: str(cl, "email"), Image: optStr(str(cl, "picture")), Data: cl}, nil
	}
	userID, err := FacebookTokenUser(ctx, c, p, tok.AccessToken)
	if err != nil {
		return nil, err
	}
	var prof map[string]any
	if err := getJSON(ctx, c, p.UserInfoURL+"?fields=id,name,email,picture", tok.AccessToken, &prof); err != nil {
		return nil, err
	}
	if str(prof, "id") != userID {
		return nil, errors.New("facebook: profile is not the token's user")
	}
	return &UserInfo{ID: userID, Name: str(prof, "name"), Email: str(prof, "email"),
		Image: optStr(str(obj(obj(prof, "picture"), "data"), "url")), EmailVerified: boolean(prof, "email_verified"), Data: prof}, nil
}

// FacebookTokenUser asks debug_token whether accessToken is valid and issued to this app and
// answers its user id.
func FacebookTokenUser(ctx context.Context, c *http.Client, p *Provider, accessToken string) (string, error) {
	q := url.Values{"input_token": {accessToken}, "access_token": {p.ClientID + "|" + p.ClientSecret}}
	var ans struct {
		Data struct {
			IsValid bool   `json:"is_valid"`
			AppID   string `json:"app_id"`
			UserID  string `json:"user_id"`
		} `json:"data"`
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.TokenInfoURL+"?"+q.Encode(), nil)
	if err != nil {
		return "", err
	}
	if err := doJSON(c, req, &ans); err != nil { // doJSON's errors carry no query (the app secret)
		return "", err
	}
	if !ans.Data.IsValid || ans.Data.AppID != p.ClientID || ans.Data.UserID == "" {
		return "", errors.New("facebook: access token not issued to this app")
	}
	return ans.Data.UserID, nil
}
