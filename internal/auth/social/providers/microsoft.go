package providers

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

func init() {
	register("microsoft", func(cfg config.Social) *Provider {
		base := "https://login.microsoftonline.com/" + cfg.MicrosoftTenantID + "/oauth2/v2.0"
		return &Provider{
			IDToken:    microsoftIDToken(cfg.MicrosoftTenantID, cfg.Providers["microsoft"].ClientID),
			AuthURL:    base + "/authorize",
			TokenURL:   base + "/token",
			PhotoURL:   "https://graph.microsoft.com/v1.0/me/photos/48x48/$value",
			Scopes:     []string{"openid", "profile", "email", "User.Read", "offline_access"},
			LoginHint:  true,
			PKCE:       true,
			CanRefresh: true,
			Profile:    microsoftProfile,
		}
	})
}

// microsoftProfile maps the id token's claims (account id: oid) and adds the 48 px photo as a
// data URL when the account has one.
func microsoftProfile(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	cl, err := idTokenClaims(tok)
	if err != nil {
		return nil, err
	}
	// The object id is the stable account id (Better Auth 1.7 refuses tokens without it).
	if strings.TrimSpace(str(cl, "oid")) == "" {
		return nil, errors.New("microsoft: id token without oid")
	}
	email := str(cl, "email")
	var verified bool
	switch v := cl["email_verified"].(type) {
	case bool:
		verified = v
	case string:
		verified = v == "true"
	case nil:
		verified = email != "" && (listHas(cl["verified_primary_email"], email) || listHas(cl["verified_secondary_email"], email))
	}
	u := &UserInfo{ID: str(cl, "oid"), Name: str(cl, "name"), Email: email, Image: optStr(str(cl, "picture")), EmailVerified: verified, Data: cl}
	if img, _, err := getBytes(ctx, c, p.PhotoURL, tok.AccessToken); err == nil && len(img) > 0 {
		// Better Auth's exact form, space included, so stored images match.
		s := "data:image/jpeg;base64, " + base64.StdEncoding.EncodeToString(img)
		u.Image = &s
	}
	return u, nil
}

// microsoftConsumerTenant is the tenant id of personal Microsoft accounts.
const microsoftConsumerTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"

// microsoftIDToken verifies id tokens as Better Auth 1.7 does: the tenant's key set, the issuer
// for a specific tenant; for the multi-tenant ones the issuer must name the token's own tenant
// and the account class must match (organizations: no personal accounts; consumers: only).
func microsoftIDToken(tenant, clientID string) *IDToken {
	const authority = "https://login.microsoftonline.com"
	it := &IDToken{JWKSURL: authority + "/" + tenant + "/discovery/v2.0/keys", Audience: []string{clientID},
		Algorithms: []string{"RS256"}, MaxAge: time.Hour}
	if tenant != "common" && tenant != "organizations" && tenant != "consumers" {
		it.Issuer = authority + "/" + tenant + "/v2.0"
	}
	it.Claims = func(c map[string]any) bool {
		tid, _ := c["tid"].(string)
		if tid == "" || c["iss"] != authority+"/"+tid+"/v2.0" {
			return false
		}
		return !(tenant == "organizations" && tid == microsoftConsumerTenant) && !(tenant == "consumers" && tid != microsoftConsumerTenant)
	}
	return it
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
