package providers

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("apple", func(cfg config.Social) *Provider {
		aud := cfg.Providers["apple"].ClientID
		if cfg.AppleBundleID != "" {
			aud = cfg.AppleBundleID // tokens minted for the iOS app carry its bundle id
		}
		return &Provider{
			IDToken: &IDToken{JWKSURL: "https://appleid.apple.com/auth/keys", Issuer: "https://appleid.apple.com",
				Audience: []string{aud}, Algorithms: []string{"RS256"}, MaxAge: time.Hour, NonceSHA256: true},
			AuthURL:  "https://appleid.apple.com/auth/authorize",
			TokenURL: "https://appleid.apple.com/auth/token",
			Scopes:   []string{"email", "name"},
			// Apple answers with a form POST carrying the code and an id token.
			Params:     map[string]string{"response_mode": "form_post", "response_type": "code id_token"},
			PKCE:       true,
			CanRefresh: true,
			Profile:    appleProfile,
		}
	})
}

type callbackUserKey struct{}

// WithCallbackUser carries the callback's `user` field (Apple posts the person's name once,
// at the first authorization, beside the code) to the profile mapping.
func WithCallbackUser(ctx context.Context, raw string) context.Context {
	return context.WithValue(ctx, callbackUserKey{}, raw)
}

// appleProfile maps the id token's claims; the name comes from the posted user field when
// Apple sent one, else from the token.
func appleProfile(ctx context.Context, _ *http.Client, _ *Provider, tok *oauth2.Token) (*UserInfo, error) {
	cl, err := idTokenClaims(tok)
	if err != nil {
		return nil, err
	}
	name := str(cl, "name")
	if raw, _ := ctx.Value(callbackUserKey{}).(string); raw != "" {
		var u struct {
			Name *struct {
				FirstName string `json:"firstName"`
				LastName  string `json:"lastName"`
			} `json:"name"`
		}
		if json.Unmarshal([]byte(raw), &u) == nil && u.Name != nil {
			name = strings.TrimSpace(u.Name.FirstName + " " + u.Name.LastName)
		}
	}
	cl["name"] = name
	return &UserInfo{ID: str(cl, "sub"), Name: name, Email: str(cl, "email"), EmailVerified: stringBool(cl, "email_verified"), Data: cl}, nil
}
