package social_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
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
	basicAuth map[string]bool           // providers whose token endpoint wants Basic credentials
}

type grant struct {
	clientID, redirectURI, challenge, method string
}

func newIDP(t testing.TB) *idp {
	d := &idp{t: t, codes: map[string]grant{}, profiles: map[string]map[string]any{}, expiresIn: 3600, basicAuth: map[string]bool{}}
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
		d.codes[code] = grant{clientID: q.Get("client_id"), redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge"), method: q.Get("code_challenge_method")}
		to := q.Get("redirect_uri") + "?code=" + code + "&state=" + url.QueryEscape(q.Get("state"))
		http.Redirect(w, r, to, http.StatusFound)
	case "token":
		d.token(w, r, id)
	case "user":
		if d.failUser || r.Header.Get("Authorization") != "Bearer at-"+id {
			http.Error(w, "no", http.StatusInternalServerError)
			return
		}
		writeJSON(w, d.profiles[id])
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
	if u, p, ok := r.BasicAuth(); ok {
		clientID, secret = u, p
	} else if d.basicAuth[id] {
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
