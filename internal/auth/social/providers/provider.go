// Package providers holds one file per identity provider: its endpoints, default scopes, extra
// authorization parameters, token style and profile mapping, as Better Auth's social-providers
// module implements them.
package providers

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

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
	ScopeSep     string            // scope joiner when it is not a space (tiktok: ",")
	ClientIDName string            // the client id's parameter name when it is not client_id (tiktok: client_key)
	NoScopes     bool              // the authorization URL carries no scope at all (zoom, paypal)
	Scope20      bool              // spaces in the scope parameter as %20, not + (cognito refuses +)
	TokenInfoURL string            // facebook's debug_token, google's tokeninfo
	TokenHeaders map[string]string // extra headers on token-endpoint requests (reddit's User-Agent)
	// IDToken, when set, lets clients sign in with an id token they got from the provider.
	IDToken *IDToken
	// Profile fetches and maps the user behind tok.
	Profile func(ctx context.Context, c *http.Client, p *Provider, tok *oauth2.Token) (*UserInfo, error)
}

// IDToken says how the provider's id tokens are verified (Better Auth's idToken configs).
type IDToken struct {
	JWKSURL     string        // the provider's key set
	Issuer      string        // the iss claim
	Audience    []string      // accepted aud values
	Algorithms  []string      // accepted signature algorithms
	MaxAge      time.Duration // iat no older than this (0: no limit)
	NonceSHA256 bool          // the nonce claim may be the hex SHA-256 of the nonce (apple)
	AllowOpaque bool          // a non-JWT token is accepted and checked through the profile call (facebook)
	TokenInfo   bool          // checked by the provider's token-info lookup instead of a key set (google)
	VerifyURL   bool          // checked by POSTing it to the provider's verify endpoint, TokenInfoURL (line)
	// Claims, when set, must accept the verified claims (microsoft's tenant binding).
	Claims func(claims map[string]any) bool
}

// OAuth2 is the x/oauth2 configuration for the provider and a redirect URI.
func (p *Provider) OAuth2(redirectURI string, extraScopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	if p.BasicAuth {
		style = oauth2.AuthStyleInHeader
	}
	cid := p.ClientID
	if p.ClientIDName != "" {
		cid = "" // sent under the provider's own name (see AuthCodeURL, Exchange)
	}
	var scopes []string
	if !p.NoScopes {
		scopes = append(append([]string(nil), p.Scopes...), extraScopes...)
		if p.ScopeSep != "" && len(scopes) > 0 {
			scopes = []string{strings.Join(scopes, p.ScopeSep)}
		}
	}
	return &oauth2.Config{ClientID: cid, ClientSecret: p.ClientSecret, RedirectURL: redirectURI, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: p.AuthURL, TokenURL: p.TokenURL, AuthStyle: style}}
}

// AuthCodeURL is the provider's authorization URL: the standard parameters, PKCE S256 when the
// provider takes it, its extras and the login hint when it takes one.
func (p *Provider) AuthCodeURL(redirectURI, state, verifier, loginHint string, scopes []string) string {
	var opts []oauth2.AuthCodeOption
	if p.PKCE {
		opts = append(opts, oauth2.S256ChallengeOption(verifier))
	}
	for k, v := range p.Params {
		opts = append(opts, oauth2.SetAuthURLParam(k, v))
	}
	if loginHint != "" && p.LoginHint {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", loginHint))
	}
	if p.ClientIDName == "" {
		raw := p.OAuth2(redirectURI, scopes).AuthCodeURL(state, opts...)
		if p.Scope20 {
			raw = scopeWith20(raw)
		}
		return raw
	}
	opts = append(opts, oauth2.SetAuthURLParam(p.ClientIDName, p.ClientID))
	raw := p.OAuth2(redirectURI, scopes).AuthCodeURL(state, opts...)
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Del("client_id") // x/oauth2 always writes one; this provider names it otherwise
	u.RawQuery = q.Encode()
	return u.String()
}

// scopeWith20 rewrites the scope parameter's spaces from + to %20, as Better Auth does for
// cognito; the other parameters keep their encoding.
func scopeWith20(raw string) string {
	base, query, ok := strings.Cut(raw, "?")
	if !ok {
		return raw
	}
	parts := strings.Split(query, "&")
	for i, kv := range parts {
		if v, ok := strings.CutPrefix(kv, "scope="); ok {
			parts[i] = "scope=" + strings.ReplaceAll(v, "+", "%20")
		}
	}
	return base + "?" + strings.Join(parts, "&")
}

// Exchange trades the code for tokens, with the PKCE verifier when the provider takes it and
// VK's device_id when the callback carried one.
func (p *Provider) Exchange(ctx context.Context, redirectURI, code, verifier, deviceID string) (*oauth2.Token, error) {
	var opts []oauth2.AuthCodeOption
	if p.PKCE {
		opts = append(opts, oauth2.VerifierOption(verifier))
	}
	if deviceID != "" {
		opts = append(opts, oauth2.SetAuthURLParam("device_id", deviceID))
	}
	return p.OAuth2(redirectURI, nil).Exchange(ctx, code, opts...) // client_key: TokenClient
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
		return QuietURL(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d", req.URL.Path, res.StatusCode)
	}
	dec := json.NewDecoder(io.LimitReader(res.Body, maxProfile))
	dec.UseNumber() // numeric ids keep every digit
	return dec.Decode(out)
}

// postFormJSON POSTs form to url (no bearer header) and decodes the JSON answer.
func postFormJSON(ctx context.Context, c *http.Client, endpoint string, form url.Values, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return doJSON(c, req, out)
}

// postJSON POSTs a JSON body with the bearer token (linear's GraphQL) and decodes the answer.
func postJSON(ctx context.Context, c *http.Client, endpoint, token string, body any, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	return doJSON(c, req, out)
}

func doJSON(c *http.Client, req *http.Request, out any) error {
	res, err := c.Do(req)
	if err != nil {
		return QuietURL(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s%s: status %d", req.URL.Host, req.URL.Path, res.StatusCode)
	}
	dec := json.NewDecoder(io.LimitReader(res.Body, maxProfile))
	dec.UseNumber()
	return dec.Decode(out)
}

// QuietURL drops the URL from an HTTP client error: queries carry tokens and facebook's app
// secret, and these errors are logged.
func QuietURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return fmt.Errorf("%s %s%s: %w", ue.Op, u.Host, u.Path, ue.Err)
		}
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

// placeholderEmail is Better Auth's stable, non-routable address for a provider that gives no
// email (RFC 6761 .invalid): {id}@{provider}.placeholder.invalid.
func placeholderEmail(id, provider string) string {
	if id == "" {
		return ""
	}
	return id + "@" + provider + ".placeholder.invalid"
}

// obj reads a nested object from a decoded JSON object (nil when absent).
func obj(m map[string]any, key string) map[string]any {
	o, _ := m[key].(map[string]any)
	return o
}

// stringBool reads a claim that providers send as a boolean or as "true"/"false".
func stringBool(m map[string]any, key string) bool {
	switch v := m[key].(type) {
	case bool:
		return v
	case string:
		return v == "true"
	}
	return false
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
		return nil, "", QuietURL(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("%s: status %d", req.URL.Path, res.StatusCode)
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
