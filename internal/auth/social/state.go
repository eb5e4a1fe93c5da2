package social

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/store"
)

// statePayload is the OAuth state record (spec §3), stored as JSON in the verification table
// under the state string, as Better Auth stores it.
type statePayload struct {
	CallbackURL   string     `json:"callbackURL"`
	CodeVerifier  string     `json:"codeVerifier"`
	ErrorURL      string     `json:"errorURL,omitempty"`
	NewUserURL    string     `json:"newUserURL,omitempty"`
	ExpiresAt     int64      `json:"expiresAt"` // ms since the epoch
	Link          *stateLink `json:"link,omitempty"`
	RequestSignUp bool       `json:"requestSignUp,omitempty"`
}

type stateLink struct {
	Email  string `json:"email"`
	UserID string `json:"userId"`
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// randomString is n characters of [A-Za-z0-9] from crypto/rand (Better Auth's generateRandomString).
func randomString(n int) string {
	b := make([]byte, n)
	buf := make([]byte, 1)
	for i := 0; i < n; {
		if _, err := rand.Read(buf); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		if int(buf[0]) < 256-256%len(alphabet) { // no modulo bias
			b[i] = alphabet[int(buf[0])%len(alphabet)]
			i++
		}
	}
	return string(b)
}

func (p *plugin) stateCookieName() string {
	if strings.HasPrefix(p.s.SessionCookieName(), "__Secure-") {
		return "__Secure-better-auth.state"
	}
	return "better-auth.state"
}

func (p *plugin) sign(v string) string {
	mac := hmac.New(sha256.New, p.s.Secret())
	mac.Write([]byte(v))
	return v + "." + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// newState stores the state record and sets the signed state cookie; it returns the state and
// the PKCE code verifier.
func (p *plugin) newState(w http.ResponseWriter, r *http.Request, sp statePayload) (string, string, error) {
	state, verifier := randomString(stateLength), randomString(verifierLength)
	now := p.s.Now()
	sp.CodeVerifier = verifier
	sp.ExpiresAt = now.Add(stateLifetime).UnixMilli()
	raw, _ := json.Marshal(sp)
	v := &store.Verification{ID: auth.NewID(), Identifier: state, Value: string(raw), ExpiresAt: now.Add(stateLifetime), CreatedAt: now, UpdatedAt: now}
	if err := p.s.Store().CreateVerification(r.Context(), v); err != nil {
		return "", "", errVerification
	}
	http.SetCookie(w, &http.Cookie{Name: p.stateCookieName(), Value: url.QueryEscape(p.sign(state)), Path: "/", MaxAge: stateCookieMaxAge,
		HttpOnly: true, Secure: strings.HasPrefix(p.stateCookieName(), "__Secure-"), SameSite: http.SameSiteLaxMode})
	return state, verifier, nil
}

// Reasons parseState fails, each the error code of spec §8 the callback redirects with.
var (
	errRestart  = errors.New("please_restart_the_process")
	errMismatch = errors.New("state_mismatch")
)

// parseState loads and consumes the state record: a missing or expired record means restart,
// a state cookie that is absent or signed for another state is a mismatch (answered with the
// record, whose error URL the browser is sent to, as Better Auth does). A parsed state's cookie
// is expired, as Better Auth's is.
func (p *plugin) parseState(ctx context.Context, w http.ResponseWriter, r *http.Request, state string) (*statePayload, error) {
	v, err := p.s.Store().VerificationByIdentifier(ctx, state)
	if err != nil {
		return nil, errRestart
	}
	var sp statePayload
	if json.Unmarshal([]byte(v.Value), &sp) != nil {
		return nil, errRestart
	}
	now := p.s.Now()
	if now.After(v.ExpiresAt) || now.UnixMilli() > sp.ExpiresAt {
		_ = p.s.Store().DeleteVerification(ctx, state)
		return nil, errRestart
	}
	if !p.cookieMatches(r, state) {
		return &sp, errMismatch
	}
	_ = p.s.Store().DeleteVerification(ctx, state)
	http.SetCookie(w, &http.Cookie{Name: p.stateCookieName(), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: strings.HasPrefix(p.stateCookieName(), "__Secure-"), SameSite: http.SameSiteLaxMode})
	return &sp, nil
}

func (p *plugin) cookieMatches(r *http.Request, state string) bool {
	c, err := r.Cookie(p.stateCookieName())
	if err != nil {
		return false
	}
	raw, err := url.QueryUnescape(c.Value)
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(raw), []byte(p.sign(state))) == 1
}
