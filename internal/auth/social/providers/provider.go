// Package providers holds one file per identity provider: its endpoints, default scopes, extra
// authorization parameters, token style and profile mapping, as Better Auth's social-providers
// module implements them.
package providers

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/config"
)

// UserInfo is the provider's user mapped to Better Auth's fields (spec §3).
type UserInfo struct {
	ID            string
	Name          string
	Email         string
	Image         *string
	EmailVerified bool
	Data          map[string]any // the provider's profile as it answered
}

// Provider is one identity provider's table.
type Provider struct {
	ID           string
	ClientID     string
	ClientSecret string
	AuthURL      string
	TokenURL     string
	UserInfoURL  string
	EmailsURL    string // github's emails list
	PhotoURL     string // microsoft's 48 px photo
	Scopes       []string
	Params       map[string]string // extra authorization parameters
	PKCE         bool
	LoginHint    bool // the provider takes login_hint
	BasicAuth    bool // client credentials as HTTP Basic on the token endpoint (else in the body)
	CanRefresh   bool
	// Profile fetches and maps the user behind tok.
	Profile func(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error)
}

// OAuth2 is the x/oauth2 configuration for the provider and a redirect URI.
func (p *Provider) OAuth2(redirectURI string, extraScopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	if p.BasicAuth {
		style = oauth2.AuthStyleInHeader
	}
	return &oauth2.Config{ClientID: p.ClientID, ClientSecret: p.ClientSecret, RedirectURL: redirectURI,
		Scopes:   append(append([]string(nil), p.Scopes...), extraScopes...),
		Endpoint: oauth2.Endpoint{AuthURL: p.AuthURL, TokenURL: p.TokenURL, AuthStyle: style}}
}

// builders maps a provider id to the function filling its table from the configuration.
var builders = map[string]func(cfg config.Social) *Provider{}

func register(id string, b func(cfg config.Social) *Provider) { builders[id] = b }

// Configured returns the providers whose client id is set, keyed by id.
func Configured(cfg config.Social) map[string]*Provider {
	out := map[string]*Provider{}
	for id, creds := range cfg.Providers {
		b, ok := builders[id]
		if !ok {
			continue
		}
		p := b(cfg)
		p.ID, p.ClientID, p.ClientSecret = id, creds.ClientID, creds.ClientSecret
		out[id] = p
	}
	return out
}

// Implemented lists the provider ids this package has a table for.
func Implemented() []string {
	var out []string
	for _, id := range config.SocialProviderIDs {
		if _, ok := builders[id]; ok {
			out = append(out, id)
		}
	}
	return out
}

const maxProfile = 1 << 20 // a profile answer larger than 1 MiB is refused

// getJSON GETs url with the bearer token and decodes the JSON answer into out.
func getJSON(ctx context.Context, c *http.Client, url, token string, out any, header ...string) error {
	return fetchJSON(ctx, c, http.MethodGet, url, token, out, header...)
}

// fetchJSON sends a bodiless request with the bearer token and decodes the JSON answer.
func fetchJSON(ctx context.Context, c *http.Client, method, url, token string, out any, header ...string) error {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d", url, res.StatusCode)
	}
	dec := json.NewDecoder(io.LimitReader(res.Body, maxProfile))
	dec.UseNumber() // numeric ids keep every digit
	return dec.Decode(out)
}

// getBytes GETs url with the bearer token and returns the body and content type.
func getBytes(ctx context.Context, c *http.Client, url, token string) ([]byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := c.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("%s: status %d", url, res.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, maxProfile))
	return b, res.Header.Get("Content-Type"), err
}

// idTokenClaims decodes the payload of the token response's id_token without checking its
// signature: it came straight from the provider's token endpoint over TLS, as Better Auth
// also trusts it for google and microsoft.
func idTokenClaims(tok *oauth2.Token) (map[string]any, error) {
	raw, _ := tok.Extra("id_token").(string)
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return nil, errors.New("no id_token")
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, err
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		return nil, err
	}
	return claims, nil
}

// str reads a string (or a number, as ids often are) from a decoded JSON object.
func str(m map[string]any, key string) string {
	switch v := m[key].(type) {
	case string:
		return v
	case float64:
		return fmt.Sprintf("%.0f", v)
	case json.Number:
		return v.String()
	}
	return ""
}

func boolean(m map[string]any, key string) bool {
	b, _ := m[key].(bool)
	return b
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// firstNonEmpty returns the first non-empty string.
func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// oidcProfile reads an OpenID Connect style user-info answer (sub, name, email, picture,
// email_verified), as huggingface, linkedin and slack answer; id names the account id claim.
func oidcProfile(id string, name func(map[string]any) string, image func(map[string]any) string) func(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
	return func(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error) {
		var prof map[string]any
		if err := getJSON(ctx, c, p.UserInfoURL, tok.AccessToken, &prof); err != nil {
			return nil, err
		}
		return &UserInfo{ID: str(prof, id), Name: name(prof), Email: str(prof, "email"), Image: optStr(image(prof)),
			EmailVerified: boolean(prof, "email_verified"), Data: prof}, nil
	}
}

func field(key string) func(map[string]any) string {
	return func(m map[string]any) string { return str(m, key) }
}
