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
	basicAuth map[string]bool           // providers whose token endpoint wants Basic credentials (the others, the body)
}

type grant struct {
	clientID, redirectURI, challenge, method string
}

func newIDP(t testing.TB) *idp {
	d := &idp{t: t, codes: map[string]grant{}, profiles: map[string]map[string]any{}, expiresIn: 3600, basicAuth: map[string]bool{}}
	for _, id := range []string{"figma", "twitter", "reddit", "notion", "paypal"} { // Better Auth's "basic" providers
		d.basicAuth[id] = true
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
	case "tokeninfo": // facebook's debug_token
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
