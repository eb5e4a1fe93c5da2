package social_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// /account-info for a social account answers the provider's live user info (mapped user, raw
// profile, the account), refreshing an access token that expires within 5 s first; a provider
// that fails answers 401 'Failed to get user info'.
func TestAccountInfoFromProvider(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app, d := server(t, st, map[string]string{"AUTH_ENCRYPT_OAUTH_TOKENS": "true"})
		profiles(d)
		d.expiresIn = 2 // within the refresh threshold: account-info refreshes first
		c := app.Client(t)
		login(t, app, c, "gitlab")
		accs := c.Do("GET", "/api/auth/list-accounts", nil)
		var rowID string
		for _, a := range listOf(t, accs) {
			if a["providerId"] == "gitlab" {
				rowID, _ = a["id"].(string)
			}
		}
		d.profiles["gitlab"]["name"] = "Git Lab Renamed" // live, not what was stored at sign-in
		res := c.Do("GET", "/api/auth/account-info?accountId="+rowID, nil)
		if res.Status != http.StatusOK {
			t.Fatalf("account-info: %d %s", res.Status, res.Body)
		}
		j := res.JSON(t)
		u, _ := j["user"].(map[string]any)
		data, _ := j["data"].(map[string]any)
		acc, _ := j["account"].(map[string]any)
		if u["name"] != "Git Lab Renamed" || u["email"] != "gitty@example.com" || u["emailVerified"] != true || u["id"] != "42" ||
			data["username"] != "gitty" || acc["id"] != rowID || acc["providerId"] != "gitlab" || acc["accountId"] != "42" {
			t.Errorf("account-info %s", res.Body)
		}
		if d.refreshes != 1 {
			t.Errorf("%d refreshes, want the nearly expired token refreshed once", d.refreshes)
		}
		if res := c.Do("POST", "/api/auth/account-info", map[string]any{"accountId": "42"}); res.Status != http.StatusOK || res.JSON(t)["account"] == nil {
			t.Errorf("by provider account id, POST: %d %s", res.Status, res.Body)
		}
		d.failUser = true
		if res := c.Do("GET", "/api/auth/account-info?accountId="+rowID, nil); res.Status != http.StatusUnauthorized || !strings.Contains(string(res.Body), "Failed to get user info") {
			t.Errorf("provider down: %d %s", res.Status, res.Body)
		}
		d.failUser = false
		if res := c.Do("GET", "/api/auth/account-info?accountId=nope", nil); res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), "Account not found") {
			t.Errorf("unknown account: %d %s", res.Status, res.Body)
		}
	})
}

// listOf decodes a JSON array of objects (or fails the test).
func listOf(t *testing.T, res testkit.Response) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(res.Body, &out); err != nil {
		t.Fatalf("not a JSON array: %s", res.Body)
	}
	return out
}
