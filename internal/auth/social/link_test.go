package social_test

import (
	"context"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Spec §4: an existing user gets the provider's account only for a verified email or a trusted
// provider, and never with linking disabled; a verified matching email marks the user verified.
func TestLinkingRules(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		app, d := server(t, st, map[string]string{"AUTH_TRUSTED_PROVIDERS": "gitlab"})
		profiles(d)
		app.SignUp(t, "gina@example.com", "password123")
		if to := login(t, app, app.Client(t), "google"); to != "/dashboard" {
			t.Errorf("verified email: sent to %q, want the existing user's callbackURL", to)
		}
		u, _ := st.UserByEmail(ctx, "gina@example.com")
		if accs, _ := st.AccountsByUser(ctx, u.ID); len(accs) != 2 || !u.EmailVerified {
			t.Errorf("verified email: %d accounts, emailVerified %v", len(accs), u.EmailVerified)
		}
		app.SignUp(t, "gitty@example.com", "password123")
		d.profiles["gitlab"]["email_verified"] = false // unverified, but gitlab is trusted here
		if to := login(t, app, app.Client(t), "gitlab"); to != "/dashboard" {
			t.Errorf("trusted provider: sent to %q", to)
		}
		g, _ := st.UserByEmail(ctx, "gitty@example.com")
		if accs, _ := st.AccountsByUser(ctx, g.ID); len(accs) != 2 || g.EmailVerified {
			t.Errorf("trusted provider: %d accounts, emailVerified %v (unverified email must stay unverified)", len(accs), g.EmailVerified)
		}

		off, d2 := server(t, st, map[string]string{"AUTH_ACCOUNT_LINKING_ENABLED": "false"})
		profiles(d2)
		off.SignUp(t, "nelly@example.com", "password123")
		if to := login(t, off, off.Client(t), "discord"); to != "/sign-in?error=account_not_linked" {
			t.Errorf("linking disabled: %q", to)
		}
	})
}

// link-social adds a provider to the signed-in user (same email, verified), list-accounts shows
// it, unlink-account removes it; without a session link-social is 401; different emails link
// only when allowed.
func TestLinkSocialAndUnlink(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app, d := server(t, st, nil)
		profiles(d)
		if res := app.Client(t).Do("POST", "/api/auth/link-social", map[string]any{"provider": "discord"}); res.Status != http.StatusUnauthorized {
			t.Errorf("link without session: %d", res.Status)
		}
		c := app.SignUp(t, "nelly@example.com", "password123")
		if res := c.Do("POST", "/api/auth/link-social", map[string]any{"provider": "discord", "callbackURL": "https://evil.example.com"}); res.Status != 403 {
			t.Errorf("evil callbackURL: %d", res.Status)
		}
		if res := c.Do("POST", "/api/auth/link-social", map[string]any{"provider": "nope"}); res.Status != 404 {
			t.Errorf("unknown provider: %d", res.Status)
		}
		_, cb := begin(t, app, c, "discord", "link-social")
		if to := callbackTo(t, c, cb); to != "/dashboard" {
			t.Fatalf("link: %q", to)
		}
		list := string(c.Do("GET", "/api/auth/list-accounts", nil).Body)
		if !strings.Contains(list, `"providerId":"discord"`) || !strings.Contains(list, `"accountId":"80351110224678912"`) {
			t.Errorf("list-accounts: %s", list)
		}
		if res := c.Do("POST", "/api/auth/unlink-account", map[string]any{"providerId": "discord"}); res.Status != 200 {
			t.Errorf("unlink: %d %s", res.Status, res.Body)
		}
		if list := string(c.Do("GET", "/api/auth/list-accounts", nil).Body); strings.Contains(list, "discord") {
			t.Errorf("still linked: %s", list)
		}

		other, d2 := server(t, st, map[string]string{"AUTH_ALLOW_DIFFERENT_EMAILS": "true"})
		profiles(d2)
		c2 := other.SignUp(t, "someone@example.com", "password123")
		_, cb = begin(t, other, c2, "gitlab", "link-social")
		if to := callbackTo(t, c2, cb); to != "/dashboard" {
			t.Errorf("different emails allowed: %q", to)
		}
	})
}

// Provider tokens: stored encrypted (hex of nonce+ciphertext+tag), answered in clear by
// get-access-token, refreshed by refresh-token and by get-access-token when expiring within 5 s.
func TestProviderTokens(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app, d := server(t, st, map[string]string{"AUTH_ENCRYPT_OAUTH_TOKENS": "true"})
		profiles(d)
		c := app.Client(t)
		login(t, app, c, "github")
		u, _ := st.UserByEmail(context.Background(), "octo@example.com")
		accs, _ := st.AccountsByUser(context.Background(), u.ID)
		raw, err := hex.DecodeString(*accs[0].AccessToken)
		if err != nil || len(raw) != 24+len("at-github")+16 {
			t.Errorf("stored access token %q is not hex(nonce|ciphertext|tag)", *accs[0].AccessToken)
		}
		res := c.Do("POST", "/api/auth/get-access-token", map[string]any{"providerId": "github"})
		j := res.JSON(t)
		if res.Status != 200 || j["accessToken"] != "at-github" || len(j["scopes"].([]any)) != 2 || d.refreshes != 0 {
			t.Errorf("get-access-token: %d %s (refreshes %d)", res.Status, res.Body, d.refreshes)
		}
		d.expiresIn = 2 // the refreshed token expires within the 5 s threshold
		res = c.Do("POST", "/api/auth/refresh-token", map[string]any{"providerId": "github"})
		if j := res.JSON(t); res.Status != 200 || j["accessToken"] != "at-github" || j["refreshToken"] != "rt-github" || d.refreshes != 1 {
			t.Errorf("refresh-token: %d %s (refreshes %d)", res.Status, res.Body, d.refreshes)
		}
		if res := c.Do("POST", "/api/auth/get-access-token", map[string]any{"providerId": "github"}); res.Status != 200 || d.refreshes != 2 {
			t.Errorf("expiring token not refreshed: %d %s (refreshes %d)", res.Status, res.Body, d.refreshes)
		}
		for _, tc := range []struct {
			path string
			body map[string]any
			want string
		}{
			{"get-access-token", map[string]any{"providerId": "myspace"}, "Provider myspace is not supported."},
			{"get-access-token", map[string]any{"providerId": "google"}, "Account not found"},
			{"refresh-token", map[string]any{"providerId": "github", "accountId": "someone-else"}, "Account not found"},
			{"get-access-token", map[string]any{}, "providerId"},
		} {
			if res := c.Do("POST", "/api/auth/"+tc.path, tc.body); res.Status != 400 || !strings.Contains(string(res.Body), tc.want) {
				t.Errorf("%s %v: %d %s", tc.path, tc.body, res.Status, res.Body)
			}
		}
		if res := app.Client(t).Do("POST", "/api/auth/get-access-token", map[string]any{"providerId": "github", "userId": u.ID}); res.Status != 401 {
			t.Errorf("userId without session: %d %s", res.Status, res.Body)
		}
		d.expiresIn = 3600
		d.profiles["github"] = nil
		bad := app.Client(t)
		login(t, app, bad, "github") // fails at user info: no session
		if res := bad.Do("POST", "/api/auth/refresh-token", map[string]any{"providerId": "github"}); res.Status != 401 {
			t.Errorf("refresh without session: %d", res.Status)
		}
	})
}
