package social_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	josejwt "github.com/go-jose/go-jose/v4/jwt"
)

// idp is the stand-in identity provider: it plays every provider under /{id}/..., checks the
// code exchange (client credentials, redirect_uri, PKCE S256) and answers profiles in each
// provider's real response shape.
type idp struct {
	srv *httptest.Server
	t   testing.TB

	mu        sync.Mutex
	codes     map[string]grant          // code -> what the authorization request carried
	profiles  map[string]map[string]any // provider -> user endpoint answer (or id_token claims)
	emails    []map[string]any          // github's emails list
	photo     []byte                    // microsoft's photo
	failUser  bool                      // the user endpoint answers 500
	expiresIn int                       // seconds in token answers
	refreshes int                       // refresh_token grants served
	basicAuth map[string]bool           // providers whose token endpoint wants Basic credentials (the others, the body)
	rsa       *rsa.PrivateKey           // signs RS256 id tokens, kid "rsa-1"
	ec        *ecdsa.PrivateKey         // signs ES256 id tokens, kid "ec-1"
	jwksHits  int                       // key-set fetches served
}

type grant struct {
	clientID, redirectURI, challenge, method string
}

func newIDP(t testing.TB) *idp {
	d := &idp{t: t, codes: map[string]grant{}, profiles: map[string]map[string]any{}, expiresIn: 3600, basicAuth: map[string]bool{}}
	for _, id := range []string{"figma", "twitter", "reddit", "notion", "paypal"} { // Better Auth's "basic" providers
		d.basicAuth[id] = true
	}
	var err error
	if d.rsa, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		t.Fatal(err)
	}
	if d.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		t.Fatal(err)
	}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *idp) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)
	if len(parts) != 2 {
		http.NotFound(w, r)
		return
	}
	id, what := parts[0], parts[1]
	d.mu.Lock()
	defer d.mu.Unlock()
	switch what {
	case "authorize":
		q := r.URL.Query()
		code := "code-" + strconv.Itoa(len(d.codes)+1)
		cid := q.Get("client_id")
		if id == "tiktok" {
			cid = q.Get("client_key") // TikTok's name for it
		}
		d.codes[code] = grant{clientID: cid, redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge"), method: q.Get("code_challenge_method")}
		to := q.Get("redirect_uri") + "?code=" + code + "&state=" + url.QueryEscape(q.Get("state"))
		http.Redirect(w, r, to, http.StatusFound)
	case "token":
		d.token(w, r, id)
	case "user":
		bearer := r.Header.Get("Authorization") == "Bearer at-"+id
		if id == "vk" { // VK ID's user info is a form POST carrying the token and client id
			bearer = r.PostFormValue("access_token") == "at-vk" && r.PostFormValue("client_id") == "vk-client"
		}
		if d.failUser || !bearer {
			http.Error(w, "no", http.StatusInternalServerError)
			return
		}
		if p, ok := d.profiles[id+"?"+r.URL.RawQuery]; ok { // twitter asks twice, by fields
			writeJSON(w, p)
			return
		}
		writeJSON(w, d.profiles[id])
	case "jwks":
		d.jwksHits++
		writeJSON(w, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &d.rsa.PublicKey, KeyID: "rsa-1", Algorithm: "RS256", Use: "sig"},
			{Key: &d.ec.PublicKey, KeyID: "ec-1", Algorithm: "ES256", Use: "sig"}}})
	case "tokeninfo":
		if id == "google" || id == "line" {
			d.verifyIDToken(w, r, id)
			return
		}
		// facebook's debug_token
		q := r.URL.Query()
		if q.Get("access_token") != id+"-client|"+id+"-secret" || q.Get("input_token") != "at-"+id {
			http.Error(w, "no", http.StatusBadRequest)
			return
		}
		writeJSON(w, map[string]any{"data": map[string]any{"is_valid": true, "app_id": id + "-client", "user_id": d.profiles[id]["id"]}})
	case "emails":
		writeJSON(w, d.emails)
	case "photo":
		if d.photo == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(d.photo)
	default:
		http.NotFound(w, r)
	}
}

func (d *idp) token(w http.ResponseWriter, r *http.Request, id string) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	f := r.PostForm
	clientID, secret := f.Get("client_id"), f.Get("client_secret")
	if id == "tiktok" {
		clientID = f.Get("client_key") // TikTok's name for it, client_id absent
		if f.Has("client_id") {
			tokenError(w, "invalid_client")
			return
		}
	}
	u, p, basic := r.BasicAuth()
	if basic {
		clientID, secret = u, p
	}
	if id == "reddit" && r.UserAgent() != "better-auth" { // Reddit refuses generic user agents
		tokenError(w, "invalid_request")
		return
	}
	if basic != d.basicAuth[id] { // each provider's own token-exchange style
		tokenError(w, "invalid_client")
		return
	}
	if clientID != id+"-client" || secret != id+"-secret" {
		tokenError(w, "invalid_client")
		return
	}
	ans := map[string]any{"access_token": "at-" + id, "token_type": "Bearer", "expires_in": d.expiresIn,
		"refresh_token": "rt-" + id, "scope": "a b"}
	switch f.Get("grant_type") {
	case "authorization_code":
		g, ok := d.codes[f.Get("code")]
		delete(d.codes, f.Get("code"))
		if !ok || g.clientID != clientID || g.redirectURI != f.Get("redirect_uri") {
			tokenError(w, "invalid_grant")
			return
		}
		if g.challenge != "" {
			sum := sha256.Sum256([]byte(f.Get("code_verifier")))
			if g.method != "S256" || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || len(f.Get("code_verifier")) != 128 {
				tokenError(w, "invalid_grant")
				return
			}
		}
	case "refresh_token":
		if f.Get("refresh_token") != "rt-"+id {
			tokenError(w, "invalid_grant")
			return
		}
		d.refreshes++
		ans["access_token"] = "at-" + id // the user endpoint keeps accepting it
		ans["refresh_token"] = "rt-" + id
		ans["id_token"] = nil
	default:
		tokenError(w, "unsupported_grant_type")
		return
	}
	if claims, ok := d.profiles[id+":id_token"]; ok && f.Get("grant_type") == "authorization_code" {
		ans["id_token"] = jwt(claims)
	}
	writeJSON(w, ans)
}

// sign makes a real id token: RS256 with the RSA key or ES256 with the EC key of the key set.
func (d *idp) sign(alg jose.SignatureAlgorithm, claims map[string]any) string {
	d.t.Helper()
	key := jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: d.rsa, KeyID: "rsa-1"}}
	if alg == jose.ES256 {
		key.Key = jose.JSONWebKey{Key: d.ec, KeyID: "ec-1"}
	}
	s, err := jose.NewSigner(key, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		d.t.Fatal(err)
	}
	raw, err := josejwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		d.t.Fatal(err)
	}
	return raw
}

// verifyIDToken plays google's tokeninfo (GET ?id_token=) and LINE's verify endpoint (POST
// id_token, client_id, nonce): a token with a good signature that has not expired is answered
// with its claims, every value a string; LINE's also checks its issuer, iat and the nonce.
func (d *idp) verifyIDToken(w http.ResponseWriter, r *http.Request, id string) {
	t, err := josejwt.ParseSigned(r.FormValue("id_token"), []jose.SignatureAlgorithm{jose.RS256})
	var claims map[string]any
	if err == nil {
		err = t.Claims(&d.rsa.PublicKey, &claims)
	}
	exp, _ := claims["exp"].(float64)
	if id == "line" && err == nil {
		if n := r.PostFormValue("nonce"); claims["iss"] != "https://access.line.me" || claims["iat"] == nil || (n != "" && claims["nonce"] != n) ||
			r.PostFormValue("client_id") != "line-client" {
			err = errors.New("invalid")
		}
	}
	if err != nil || int64(exp) < time.Now().Unix() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":"invalid_token","error_description":"Invalid Value"}`))
		return
	}
	out := map[string]string{}
	for k, v := range claims {
		switch v := v.(type) {
		case string:
			out[k] = v
		case float64:
			out[k] = strconv.FormatInt(int64(v), 10)
		case bool:
			out[k] = strconv.FormatBool(v)
		}
	}
	writeJSON(w, out)
}

func tokenError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// jwt shapes claims as an id token (header.payload.signature); the server reads the claims of
// tokens it got from the token endpoint itself and does not check this signature.
func jwt(claims map[string]any) string {
	enc := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
	return enc(map[string]string{"alg": "RS256", "typ": "JWT"}) + "." + enc(claims) + ".c2ln"
}
