package providers

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("microsoft", func(cfg config.Social) *Provider {
		base := "https://login.microsoftonline.com/" + cfg.MicrosoftTenantID + "/oauth2/v2.0"
		return &Provider{
			AuthURL:    base + "/authorize",
			TokenURL:   base + "/token",
			PhotoURL:   "https://graph.microsoft.com/v1.0/me/photos/48x48/$value",
			Scopes:     []string{"openid", "profile", "email", "User.Read", "offline_access"},
			PKCE:       true,
			CanRefresh: true,
			Profile:    microsoftProfile,
		}
	})
}

// microsoftProfile maps the id token's claims and adds the 48 px photo as a data URL when
// the account has one.
func microsoftProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	cl, err := idTokenClaims(tok)
	if err != nil {
		return nil, err
	}
	if str(cl, "sub") == "" {
		return nil, errors.New("microsoft: id token without sub")
	}
	email := firstNonEmpty(str(cl, "email"), str(cl, "preferred_username"))
	verified := boolean(cl, "email_verified")
	if _, ok := cl["email_verified"]; !ok && email != "" {
		verified = listHas(cl["verified_primary_email"], email) || listHas(cl["verified_secondary_email"], email)
	}
	u := &UserInfo{ID: str(cl, "sub"), Name: str(cl, "name"), Email: email, EmailVerified: verified, Data: cl}
	if img, ctype, err := getBytes(ctx, c, p.PhotoURL, tok.AccessToken); err == nil && len(img) > 0 {
		if ctype == "" || !strings.HasPrefix(ctype, "image/") {
			ctype = "image/jpeg"
		}
		s := "data:" + ctype + ";base64," + base64.StdEncoding.EncodeToString(img)
		u.Image = &s
	}
	return u, nil
}

func listHas(v any, s string) bool {
	list, _ := v.([]any)
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
