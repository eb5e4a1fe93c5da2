// Package social is Better Auth's social sign-in at /api/auth: sign-in/social, the OAuth
// callback, link-social and the provider-token routes. Providers live in ./providers, one file
// each; this package holds the flow (state, code exchange, linking rules).
package social

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/social/jwks"
	"github.com/sellertrends/sellertrends/internal/auth/social/providers"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Spec §9 constants.
const (
	stateCookieMaxAge = 300 * 1000 // seconds: Better Auth passes 5*60*1000 to a seconds field as-is
	stateLifetime     = 10 * time.Minute
	verifierLength    = 128
	stateLength       = 32
	refreshThreshold  = 5 * time.Second
	outboundTimeout   = 10 * time.Second
)

// Errors of the social routes, as Better Auth words them.
var (
	errProviderNotFound = httpx.NewError(http.StatusNotFound, "PROVIDER_NOT_FOUND", "Provider not found")
	errIDTokenNotSup    = httpx.NewError(http.StatusNotFound, "ID_TOKEN_NOT_SUPPORTED", "id_token not supported")
	errVerification     = httpx.NewError(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Unable to create verification")
)

// testEndpoints, set only by the tests (export_test.go), points providers at a stand-in.
var testEndpoints func(p *providers.Provider)

// pointAt sends a provider's endpoints to a stand-in identity provider at base: /{id}/authorize,
// /token, /user, /emails, /photo, /tokeninfo and /jwks. Only tests do this.
func pointAt(p *providers.Provider, base string) {
	pre := base + "/" + p.ID
	p.AuthURL, p.TokenURL, p.UserInfoURL = pre+"/authorize", pre+"/token", pre+"/user"
	p.EmailsURL, p.PhotoURL, p.TokenInfoURL = pre+"/emails", pre+"/photo", pre+"/tokeninfo"
	if p.IDToken != nil && p.IDToken.JWKSURL != "" {
		p.IDToken.JWKSURL = pre + "/jwks"
	}
}

// Plugin is the social sign-in plugin.
type Plugin struct{}

// ID is Better Auth's name for the feature (it is core there, not a plugin).
func (Plugin) ID() string { return "social" }

type plugin struct {
	s         *auth.Service
	cfg       config.Social
	providers map[string]*providers.Provider
	client    *http.Client
	enc       *tokenCipher
	keySets   map[string]*jwks.Set // provider id -> its id-token key set
}

// Register mounts the routes.
func (Plugin) Register(s *auth.Service) error {
	p := &plugin{s: s, cfg: s.Config().Social, providers: providers.Configured(s.Config().Social),
		client: &http.Client{Timeout: outboundTimeout}}
	if p.cfg.EncryptOAuthTokens {
		p.enc = newTokenCipher(s.Secret())
	}
	for _, pr := range p.providers {
		switch {
		case testEndpoints != nil: // Go tests (export_test.go)
			testEndpoints(pr)
		case p.cfg.TestIDPURL != "": // browser tests: SOCIAL_TEST_IDP_URL, refused in production
			pointAt(pr, strings.TrimRight(p.cfg.TestIDPURL, "/"))
		}
	}
	p.keySets = map[string]*jwks.Set{}
	for id, pr := range p.providers {
		if pr.IDToken != nil && pr.IDToken.JWKSURL != "" {
			p.keySets[id] = jwks.New(pr.IDToken.JWKSURL, p.client, s.Now)
		}
	}
	s.SetAccountInfo(p.accountInfo)
	s.Handle("GET /social-providers", p.listProviders, auth.NoLimit)
	s.Handle("POST /sign-in/social", p.signInSocial)
	s.Handle("GET /callback/{id}", p.callback)
	// form_post providers POST the callback cross-site, without cookies and with fetch metadata
	// the core's origin check refuses; the POST only redirects to the GET (which checks state
	// and cookie), so it is answered in a wrapper, ahead of that check.
	s.Wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id, ok := strings.CutPrefix(r.URL.Path, auth.BasePath+"/callback/")
			if r.Method != http.MethodPost || !ok || id == "" || strings.Contains(id, "/") {
				next.ServeHTTP(w, r)
				return
			}
			p.callbackPost(w, r, id)
		})
	})
	s.Handle("POST /link-social", p.linkSocial)
	s.Handle("POST /get-access-token", p.getAccessToken)
	s.Handle("POST /refresh-token", p.refreshToken)
	return nil
}

// listProviders tells the sign-in page which providers are configured (ids only).
func (p *plugin) listProviders(w http.ResponseWriter, _ *http.Request) {
	ids := make([]string, 0, len(p.providers))
	for id := range p.providers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"providers": ids})
}

func (p *plugin) redirectURI(id string) string {
	return strings.TrimRight(p.s.Config().BaseURL.String(), "/") + auth.BasePath + "/callback/" + id
}

func (p *plugin) trusted(id string) bool {
	for _, t := range p.cfg.TrustedProviders {
		if t == id {
			return true
		}
	}
	return false
}
