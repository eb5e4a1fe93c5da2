package social_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/sellertrends/sellertrends/internal/auth/social/providers"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// idTokenCase is one provider's good id token and the user it must sign in as.
type idTokenCase struct {
	claims   map[string]any
	user     map[string]any // idToken.user (apple's name)
	want     want
	maxAge   bool // the provider refuses tokens issued over an hour ago
	shaNonce bool // the token may carry the nonce's hex SHA-256 (apple)
}

func idTokenCases() map[string]idTokenCase {
	now := time.Now().Unix()
	base := func(iss, aud, sub string, extra map[string]any) map[string]any {
		m := map[string]any{"iss": iss, "aud": aud, "sub": sub, "iat": now - 60, "exp": now + 600, "nonce": "n-1"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return map[string]idTokenCase{
		"apple": {claims: base("https://appleid.apple.com", "apple-client", "001234.5e5d2c1f8b1c4a8e9d0f.1234",
			map[string]any{"email": "ada@privaterelay.appleid.com", "email_verified": "true", "is_private_email": "true"}),
			user: map[string]any{"name": map[string]any{"firstName": "Ada", "lastName": "Apple"}},
			want: want{"ada@privaterelay.appleid.com", "Ada Apple", "", "001234.5e5d2c1f8b1c4a8e9d0f.1234", true}, maxAge: true, shaNonce: true},
		"cognito": {claims: base("https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf", "cognito-client", "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
			map[string]any{"email": "cog@example.com", "email_verified": true, "given_name": "Cog", "cognito:username": "cog", "token_use": "id"}),
			want: want{"cog@example.com", "Cog", "", "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", true}, maxAge: true},
		"facebook": {claims: base("https://www.facebook.com", "facebook-client", "10158000000000001",
			map[string]any{"email": "fay@example.com", "name": "Fay Book", "picture": "https://platform-lookaside.fbsbx.com/x"}),
			want: want{"fay@example.com", "Fay Book", "https://platform-lookaside.fbsbx.com/x", "10158000000000001", false}},
		"microsoft": {claims: base("https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0", "microsoft-client",
			"AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", map[string]any{"tid": "72f988bf-86f1-41af-91ab-2d7cd011db47",
				"oid": "00000000-0000-0000-66f3-3332eca7ea81", "name": "Megan Bowen", "email": "megan@contoso.com", "verified_primary_email": []string{"megan@contoso.com"}}),
			want: want{"megan@contoso.com", "Megan Bowen", "", "00000000-0000-0000-66f3-3332eca7ea81", true}, maxAge: true},
		"line": {claims: base("https://access.line.me", "line-client", "U1234567890abcdef1234567890abcdef",
			map[string]any{"name": "Li Ne", "picture": "https://profile.line-scdn.net/x", "email": "line@example.com", "amr": []string{"pwd"}}),
			want: want{"line@example.com", "Li Ne", "https://profile.line-scdn.net/x", "U1234567890abcdef1234567890abcdef", false}},
		"google": {claims: base("https://accounts.google.com", "google-client", "109876543210987654321",
			map[string]any{"email": "gina@example.com", "email_verified": true, "name": "Gina Google", "picture": "https://lh3.googleusercontent.com/a/x", "azp": "google-client"}),
			want: want{"gina@example.com", "Gina Google", "https://lh3.googleusercontent.com/a/x", "109876543210987654321", true}},
	}
}

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for a, b := range m {
		out[a] = b
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

func idTokenSignIn(c *testkit.Client, provider, token, nonce string, user map[string]any) testkit.Response {
	it := map[string]any{"token": token, "nonce": nonce}
	if user != nil {
		it["user"] = user
	}
	return c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": provider, "idToken": it})
}

// A good id token (RS256, signed by the provider's key set, or checked by google's token-info
// lookup) signs in: new user created as mapped, account stored with the id token, session set.
// Expired, wrong-audience, wrong-issuer, wrong-nonce, too old (apple, cognito), ES256 where
// the provider signs RS256 only, and foreign-key tokens are refused with 401 Invalid token.
func TestIDTokenSignIn(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app, d := server(t, st, nil)
		now := time.Now().Unix()
		for id, tc := range idTokenCases() {
			t.Run(id, func(t *testing.T) {
				refuse := func(name, token, nonce string) {
					t.Helper()
					res := idTokenSignIn(app.Client(t), id, token, nonce, tc.user)
					if res.Status != http.StatusUnauthorized || !strings.Contains(string(res.Body), `"INVALID_TOKEN"`) {
						t.Errorf("%s: %d %s", name, res.Status, res.Body)
					}
				}
				refuse("expired", d.sign(jose.RS256, with(with(tc.claims, "exp", now-120), "iat", now-1200)), "n-1")
				refuse("wrong audience", d.sign(jose.RS256, with(tc.claims, "aud", "someone-else")), "n-1")
				refuse("wrong issuer", d.sign(jose.RS256, with(tc.claims, "iss", "https://evil.example.com")), "n-1")
				refuse("wrong nonce", d.sign(jose.RS256, tc.claims), "n-2")
				refuse("nonce missing from the token", d.sign(jose.RS256, with(tc.claims, "nonce", nil)), "n-1")
				if id != "facebook" { // facebook takes opaque tokens (TestIDTokenOpaqueAndUnsupported)
					refuse("not a JWT", "abc.def", "n-1")
				}
				if id == "microsoft" { // the issuer must name the token's own tenant
					refuse("issuer of another tenant", d.sign(jose.RS256, with(tc.claims, "tid", "9188040d-6c67-4c5b-b112-36a304b66dad")), "n-1")
				}
				if id != "google" {
					refuse("ES256 where the provider signs RS256", d.sign(jose.ES256, tc.claims), "n-1")
					refuse("no iat", d.sign(jose.RS256, with(tc.claims, "iat", nil)), "n-1")
				}
				other := newIDP(t) // same key ids, other keys: a forged signature
				refuse("signed by another key", other.sign(jose.RS256, tc.claims), "n-1")
				old := d.sign(jose.RS256, with(tc.claims, "iat", now-2*3600))
				if tc.maxAge {
					refuse("issued two hours ago", old, "n-1")
				}

				claims := tc.claims
				if tc.shaNonce { // apple: the token carries the hex SHA-256 of the client's nonce
					sum := sha256.Sum256([]byte("n-1"))
					claims = with(claims, "nonce", hex.EncodeToString(sum[:]))
				}
				c := app.Client(t)
				res := idTokenSignIn(c, id, d.sign(jose.RS256, claims), "n-1", tc.user)
				if res.Status != http.StatusOK {
					t.Fatalf("good token: %d %s", res.Status, res.Body)
				}
				j := res.JSON(t)
				u, _ := j["user"].(map[string]any)
				img, _ := u["image"].(string)
				if j["redirect"] != false || j["token"] == "" || u["email"] != tc.want.email || u["name"] != tc.want.name ||
					img != tc.want.image || u["emailVerified"] != tc.want.verified {
					t.Errorf("answer %v, want %+v", j, tc.want)
				}
				if s := c.Do("GET", "/api/auth/get-session", nil).JSON(t); s["user"].(map[string]any)["id"] != u["id"] {
					t.Errorf("session %v", s)
				}
				accs, err := st.AccountsByUser(context.Background(), u["id"].(string))
				if err != nil || len(accs) != 1 || accs[0].ProviderID != id || accs[0].AccountID != tc.want.accountID || accs[0].IDToken == nil {
					t.Errorf("accounts %+v %v", accs, err)
				}
				if !tc.maxAge { // no age limit: an older, unexpired token is fine
					if res := idTokenSignIn(app.Client(t), id, old, "n-1", nil); res.Status != http.StatusOK {
						t.Errorf("older token: %d %s", res.Status, res.Body)
					}
				}
				if id == "line" { // Better Auth's line check: a nonce in the token needs the client's
					refuse("token nonce, none from the client", d.sign(jose.RS256, claims), "")
				} else if res := idTokenSignIn(app.Client(t), id, d.sign(jose.RS256, claims), "", nil); res.Status != http.StatusOK {
					t.Errorf("no nonce asked, none checked: %d %s", res.Status, res.Body)
				}
			})
		}
		// Every verification above fetched each provider's key set once (10-minute cache, and an
		// unknown key is not refetched within 30 s).
		if d.jwksHits != 4 {
			t.Errorf("key set fetched %d times for apple, cognito, facebook and microsoft", d.jwksHits)
		}
	})
}

// An opaque facebook access token is checked with debug_token, then /me must be its user.
// Providers without id-token support answer 404; a missing token is a 400.
func TestIDTokenOpaqueAndUnsupported(t *testing.T) {
	st := testkit.SQLite(t)
	app, d := server(t, st, nil)
	profiles(d)
	c := app.Client(t)
	res := c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": "facebook", "idToken": map[string]any{"token": "opaque-facebook-token", "accessToken": "at-facebook"}})
	if res.Status != http.StatusOK || res.JSON(t)["user"].(map[string]any)["email"] != "fay@example.com" {
		t.Errorf("opaque facebook: %d %s", res.Status, res.Body)
	}
	res = c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": "facebook", "idToken": map[string]any{"token": "opaque", "accessToken": "at-someone-else"}})
	if res.Status != http.StatusUnauthorized || !strings.Contains(string(res.Body), "Failed to get user info") {
		t.Errorf("facebook token of another app: %d %s", res.Status, res.Body)
	}
	res = c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": "github", "idToken": map[string]any{"token": "a.b.c"}})
	if res.Status != http.StatusNotFound || !strings.Contains(string(res.Body), "id_token not supported") {
		t.Errorf("github: %d %s", res.Status, res.Body)
	}
	res = c.Do("POST", "/api/auth/sign-in/social", map[string]any{"provider": "apple", "idToken": map[string]any{}})
	if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), "idToken.token") {
		t.Errorf("no token: %d %s", res.Status, res.Body)
	}
}

// The §4 rules apply to id-token sign-in: an existing user with the same email is not linked
// from an unverified provider email (401 account_not_linked).
func TestIDTokenLinkingRules(t *testing.T) {
	st := testkit.SQLite(t)
	app, d := server(t, st, nil)
	app.SignUp(t, "fay@example.com", "password123")
	tc := idTokenCases()["facebook"]
	res := idTokenSignIn(app.Client(t), "facebook", d.sign(jose.RS256, tc.claims), "n-1", nil)
	if res.Status != http.StatusUnauthorized || !strings.Contains(string(res.Body), "account_not_linked") {
		t.Errorf("unverified email onto an existing user: %d %s", res.Status, res.Body)
	}
}

// link-social with an idToken links at once under the linking rules: verified email of the
// same address links (again: tokens updated), another user's account is a 409, an unverified
// email or a different address is refused, a provider without id tokens is a 404.
func TestLinkSocialIDToken(t *testing.T) {
	st := testkit.SQLite(t)
	app, d := server(t, st, nil)
	cases := idTokenCases()
	c := app.SignUp(t, "cog@example.com", "password123")
	link := func(c *testkit.Client, provider string, claims map[string]any) testkit.Response {
		return c.Do("POST", "/api/auth/link-social", map[string]any{"provider": provider, "idToken": map[string]any{"token": d.sign(jose.RS256, claims), "nonce": "n-1"}})
	}
	for i := 0; i < 2; i++ {
		res := link(c, "cognito", cases["cognito"].claims)
		if j := res.JSON(t); res.Status != http.StatusOK || j["status"] != true || j["redirect"] != false || j["url"] != "" {
			t.Fatalf("link #%d: %d %s", i+1, res.Status, res.Body)
		}
	}
	var providers []string
	for _, a := range listOf(t, c.Do("GET", "/api/auth/list-accounts", nil)) {
		providers = append(providers, a["providerId"].(string))
	}
	if strings.Join(providers, ",") != "credential,cognito" && strings.Join(providers, ",") != "cognito,credential" {
		t.Errorf("accounts after linking twice: %v", providers)
	}
	other := app.SignUp(t, "someone@example.com", "password123")
	checks := []struct {
		name     string
		c        *testkit.Client
		provider string
		claims   map[string]any
		status   int
		code     string
	}{
		{"already another user's", other, "cognito", cases["cognito"].claims, http.StatusConflict, "SOCIAL_ACCOUNT_ALREADY_LINKED"},
		{"unverified email", c, "facebook", with(cases["facebook"].claims, "email", "cog@example.com"), http.StatusUnauthorized, "LINKING_NOT_ALLOWED"},
		{"different email", c, "google", cases["google"].claims, http.StatusUnauthorized, "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED"},
		{"bad token", c, "google", with(cases["google"].claims, "aud", "x"), http.StatusUnauthorized, "INVALID_TOKEN"},
		{"no id-token support", c, "github", cases["google"].claims, http.StatusNotFound, "ID_TOKEN_NOT_SUPPORTED"},
	}
	for _, tc := range checks {
		if res := link(tc.c, tc.provider, tc.claims); res.Status != tc.status || res.JSON(t)["code"] != tc.code {
			t.Errorf("%s: %d %s", tc.name, res.Status, res.Body)
		}
	}
	if res := app.Client(t).Do("POST", "/api/auth/link-social", map[string]any{"provider": "cognito", "idToken": map[string]any{"token": "x"}}); res.Status != http.StatusUnauthorized {
		t.Errorf("without a session: %d %s", res.Status, res.Body)
	}
}

// Errors of outbound calls are logged; they must not carry the query (facebook's app secret,
// an id token for google's token-info lookup).
func TestOutboundErrorsCarryNoQuery(t *testing.T) {
	err := providers.QuietURL(&url.Error{Op: "Get", URL: "https://graph.facebook.com/debug_token?input_token=t&access_token=app%7Csecret", Err: errors.New("dial tcp: refused")})
	if msg := err.Error(); strings.Contains(msg, "secret") || strings.Contains(msg, "input_token") || !strings.Contains(msg, "graph.facebook.com/debug_token") || !strings.Contains(msg, "refused") {
		t.Errorf("error %q", msg)
	}
}
