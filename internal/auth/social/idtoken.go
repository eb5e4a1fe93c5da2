package social

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/social/jwks"
	"github.com/sellertrends/sellertrends/internal/auth/social/providers"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

// idTokenLeeway is the clock skew allowed on exp, nbf and iat (Better Auth's 30 s).
const idTokenLeeway = 30 * time.Second

// Errors of the id-token sign-in, as Better Auth words them.
var (
	errBadIDToken  = httpx.NewError(http.StatusUnauthorized, "INVALID_TOKEN", "Invalid token")
	errNoUserInfo  = httpx.NewError(http.StatusUnauthorized, "FAILED_TO_GET_USER_INFO", "Failed to get user info")
	errNoUserEmail = httpx.NewError(http.StatusUnauthorized, "USER_EMAIL_NOT_FOUND", "User email not found")
	// link-social with an id token
	errAlreadyLinked  = httpx.NewError(http.StatusConflict, "SOCIAL_ACCOUNT_ALREADY_LINKED", "Social account already linked")
	errLinkNotAllowed = httpx.NewError(http.StatusUnauthorized, "LINKING_NOT_ALLOWED", "Account not linked - linking not allowed")
	errLinkOtherEmail = httpx.NewError(http.StatusUnauthorized, "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED", "Account not linked - different emails not allowed")
	errLinkFailed     = httpx.NewError(http.StatusExpectationFailed, "LINKING_FAILED", "Account not linked - unable to create account")
)

// idTokenBody is sign-in/social's idToken object.
type idTokenBody struct {
	Token        *string         `json:"token"`
	Nonce        *string         `json:"nonce"`
	AccessToken  *string         `json:"accessToken"`
	RefreshToken *string         `json:"refreshToken"`
	ExpiresAt    *float64        `json:"expiresAt"`
	User         json.RawMessage `json:"user"` // apple: {name: {firstName, lastName}, email}
}

func (b *idTokenBody) check(f *auth.Fields) {
	f.Required("idToken.token", b.Token)
	f.MaxLen("idToken.nonce", b.Nonce, 512)
	f.MaxLen("idToken.accessToken", b.AccessToken, 8192)
	f.MaxLen("idToken.refreshToken", b.RefreshToken, 8192)
	if len(b.User) > 4096 {
		*f = append(*f, "[body.idToken.user] Too big")
	}
}

// signInIDToken signs in with an id token the client got from the provider itself: verified
// (signature by the provider's key set, or google's token-info lookup; issuer, audience, expiry,
// age and nonce), mapped like the code flow's profile, then the §4 rules apply.
func (p *plugin) signInIDToken(w http.ResponseWriter, r *http.Request, pr *providers.Provider, b *signInBody) {
	info, tok, err := p.idTokenUser(r.Context(), pr, b.IDToken)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	user, _, code := p.signInUser(r.Context(), pr, info, tok, b.RequestSignUp)
	if code != "" { // Better Auth answers the callback code as the message
		auth.WriteError(w, r, httpx.NewError(http.StatusUnauthorized, "OAUTH_LINK_ERROR", code))
		return
	}
	sess, u, err := p.s.SignIn(w, r, user, false)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"redirect": false, "token": sess.Token, "user": u})
}

// idTokenUser verifies the client's id token and maps the user it names; the token answer
// carries it (and the client's access and refresh tokens) for storing on the account.
func (p *plugin) idTokenUser(ctx context.Context, pr *providers.Provider, it *idTokenBody) (*providers.UserInfo, *oauth2.Token, error) {
	if pr.IDToken == nil {
		return nil, nil, errIDTokenNotSup
	}
	if err := p.verifyIDToken(ctx, pr, *it.Token, deref(it.Nonce)); err != nil {
		slog.Warn("invalid id token", "provider", pr.ID, "error", err)
		return nil, nil, errBadIDToken
	}
	tok := (&oauth2.Token{AccessToken: deref(it.AccessToken), RefreshToken: deref(it.RefreshToken)}).
		WithExtra(map[string]any{"id_token": *it.Token})
	if len(it.User) > 0 {
		ctx = providers.WithCallbackUser(ctx, string(it.User))
	}
	info, err := pr.Profile(context.WithValue(ctx, oauth2.HTTPClient, p.client), p.client, pr, tok)
	if err != nil || info == nil || info.ID == "" {
		slog.Warn("id token user info failed", "provider", pr.ID, "error", err)
		return nil, nil, errNoUserInfo
	}
	if info.Email == "" {
		return nil, nil, errNoUserEmail
	}
	return info, tok, nil
}

// linkIDToken links the account an id token names to the signed-in user at once (link-social
// with idToken), under the same rules as the code flow, in Better Auth's words.
func (p *plugin) linkIDToken(w http.ResponseWriter, r *http.Request, pr *providers.Provider, it *idTokenBody, userID, email string) {
	ctx := r.Context()
	info, tok, err := p.idTokenUser(ctx, pr, it)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	acc, err := p.accountByProvider(ctx, pr.ID, info.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		auth.WriteError(w, r, err)
		return
	}
	err = nil
	switch {
	case acc != nil && acc.UserID == userID:
		err = p.updateTokens(ctx, acc.ID, tok)
	case acc != nil:
		err = errAlreadyLinked
	case (!p.trusted(pr.ID) && !info.EmailVerified) || !p.cfg.AccountLinking:
		err = errLinkNotAllowed
	case !strings.EqualFold(info.Email, email) && !p.cfg.AllowDifferentEmails:
		err = errLinkOtherEmail
	default:
		if p.createAccount(ctx, pr, info, tok, userID) != nil {
			err = errLinkFailed
		}
	}
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"url": "", "status": true, "redirect": false})
}

// verifyIDToken checks raw as the provider's id token for this app.
func (p *plugin) verifyIDToken(ctx context.Context, pr *providers.Provider, raw, nonce string) error {
	cfg := pr.IDToken
	if cfg.TokenInfo {
		return p.tokenInfo(ctx, pr, raw, nonce)
	}
	if cfg.VerifyURL {
		return p.verifyEndpoint(ctx, pr, raw, nonce)
	}
	if strings.Count(raw, ".") != 2 {
		if cfg.AllowOpaque {
			return nil // an opaque facebook token: the profile call checks it with debug_token
		}
		return errors.New("not a JWT")
	}
	algs := make([]jose.SignatureAlgorithm, len(cfg.Algorithms))
	for i, a := range cfg.Algorithms {
		algs[i] = jose.SignatureAlgorithm(a)
	}
	t, err := jwt.ParseSigned(raw, algs) // algorithms from our table, never from the token
	if err != nil {
		return err
	}
	set := p.keySets[pr.ID]
	if set == nil {
		return errors.New("no key set")
	}
	key, err := set.Key(ctx, t.Headers[0].KeyID)
	if err != nil {
		return err
	}
	var std jwt.Claims
	var extra struct {
		Nonce *string `json:"nonce"`
	}
	var all map[string]any
	if err := t.Claims(key.Key, &std, &extra, &all); err != nil {
		return err
	}
	now := p.s.Now()
	if std.Issuer == "" || std.Subject == "" || len(std.Audience) == 0 || std.Expiry == nil || std.IssuedAt == nil {
		return errors.New("a required claim (iss, sub, aud, exp, iat) is missing")
	}
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: cfg.Issuer, AnyAudience: cfg.Audience, Time: now}, idTokenLeeway); err != nil {
		return err
	}
	if cfg.MaxAge > 0 && now.Sub(std.IssuedAt.Time()) > cfg.MaxAge+idTokenLeeway {
		return fmt.Errorf("issued %s ago, over the %s maximum", now.Sub(std.IssuedAt.Time()).Round(time.Second), cfg.MaxAge)
	}
	if cfg.Claims != nil && !cfg.Claims(all) {
		return errors.New("claims refused by the provider's rules")
	}
	return checkNonce(extra.Nonce, nonce, cfg.NonceSHA256)
}

// verifyEndpoint POSTs the token to the provider's verify endpoint (line), which checks the
// signature and expiry and answers the claims; the audience must be this app and a nonce in
// the answer must be the client's.
func (p *plugin) verifyEndpoint(ctx context.Context, pr *providers.Provider, raw, nonce string) error {
	ctx, cancel := context.WithTimeout(ctx, jwks.FetchTimeout)
	defer cancel()
	form := url.Values{"id_token": {raw}, "client_id": {pr.ClientID}}
	if nonce != "" {
		form.Set("nonce", nonce)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, pr.TokenInfoURL, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := p.client.Do(req)
	if err != nil {
		return providers.QuietURL(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("verify endpoint answered %d", res.StatusCode)
	}
	var c struct {
		Aud   string  `json:"aud"`
		Nonce *string `json:"nonce"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&c); err != nil {
		return err
	}
	if !slices.Contains(pr.IDToken.Audience, c.Aud) {
		return errors.New("audience is not this app")
	}
	if c.Nonce != nil && *c.Nonce != nonce {
		return errors.New("nonce does not match")
	}
	return nil
}

// checkNonce compares the token's nonce with the client's when the client sent one.
func checkNonce(claim *string, nonce string, sha bool) error {
	if nonce == "" {
		return nil
	}
	if claim != nil {
		if *claim == nonce {
			return nil
		}
		if sum := sha256.Sum256([]byte(nonce)); sha && *claim == hex.EncodeToString(sum[:]) {
			return nil
		}
	}
	return errors.New("nonce does not match")
}

// tokenInfo asks google's token-info endpoint, which checks the signature and expiry, and then
// checks audience, issuer, expiry and nonce of its answer.
func (p *plugin) tokenInfo(ctx context.Context, pr *providers.Provider, raw, nonce string) error {
	ctx, cancel := context.WithTimeout(ctx, jwks.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, pr.TokenInfoURL+"?"+url.Values{"id_token": {raw}}.Encode(), nil)
	if err != nil {
		return err
	}
	res, err := p.client.Do(req)
	if err != nil {
		return providers.QuietURL(err) // the query holds the id token
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("tokeninfo answered %d", res.StatusCode)
	}
	var c map[string]any
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&c); err != nil {
		return err
	}
	s := func(k string) string { v, _ := c[k].(string); return v }
	if !slices.Contains(pr.IDToken.Audience, s("aud")) {
		return errors.New("audience is not this app")
	}
	if iss := s("iss"); iss != "https://accounts.google.com" && iss != "accounts.google.com" {
		return errors.New("issuer is not google")
	}
	exp, err := strconv.ParseInt(s("exp"), 10, 64)
	if err != nil || time.Unix(exp, 0).Add(idTokenLeeway).Before(p.s.Now()) {
		return errors.New("expired")
	}
	var claim *string
	if _, ok := c["nonce"]; ok {
		n := s("nonce")
		claim = &n
	}
	return checkNonce(claim, nonce, false)
}
