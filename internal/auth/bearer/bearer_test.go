package bearer_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// A client without cookies keeps the set-auth-token header of sign-in and sends it back as a
// bearer token: get-session and the product API accept it; a forged signature is no session.
func TestBearerToken(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		app.SignUp(t, "bea@example.com", "password123")
		c := app.Client(t)
		res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": "bea@example.com", "password": "password123"})
		tok := res.Header.Get("set-auth-token")
		if res.Status != 200 || tok == "" || !strings.Contains(tok, ".") {
			t.Fatalf("sign-in: %d, set-auth-token %q", res.Status, tok)
		}
		if !strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), "set-auth-token") {
			t.Errorf("set-auth-token not exposed: %q", res.Header.Get("Access-Control-Expose-Headers"))
		}
		raw := res.JSON(t)["token"].(string)
		if !strings.HasPrefix(tok, raw+".") {
			t.Errorf("set-auth-token %q is not the signed session token %q", tok, raw)
		}
		bare := app.Client(t) // no cookies at all
		for name, header := range map[string]string{"signed": "Bearer " + tok, "url-encoded": "bearer " + url.QueryEscape(tok), "raw token": "Bearer " + raw} {
			got := bare.Do("GET", "/api/auth/get-session", nil, "Authorization", header)
			if got.Status != 200 || !strings.Contains(string(got.Body), "bea@example.com") {
				t.Errorf("%s: get-session %d %s", name, got.Status, got.Body)
			}
			if api := bare.Do("GET", "/api/workspaces", nil, "Authorization", header); api.Status != 200 {
				t.Errorf("%s: /api/workspaces %d %s", name, api.Status, api.Body)
			}
		}
		forged := tok[:len(tok)-4] + "AAA="
		for _, header := range []string{"Bearer " + forged, "Basic " + tok, "Bearer "} {
			if got := bare.Do("GET", "/api/auth/get-session", nil, "Authorization", header); string(got.Body) != "null\n" {
				t.Errorf("%q: got a session: %s", header, got.Body)
			}
			if api := bare.Do("GET", "/api/workspaces", nil, "Authorization", header); api.Status != http.StatusUnauthorized {
				t.Errorf("%q: /api/workspaces %d", header, api.Status)
			}
		}
		// Signing out with the bearer token ends the session for the bearer too.
		if out := bare.Do("POST", "/api/auth/sign-out", map[string]any{}, "Authorization", "Bearer "+tok); out.Status != 200 {
			t.Fatalf("sign-out: %d %s", out.Status, out.Body)
		}
		if got := bare.Do("GET", "/api/auth/get-session", nil, "Authorization", "Bearer "+tok); string(got.Body) != "null\n" {
			t.Errorf("session survived sign-out: %s", got.Body)
		}
	})
}
