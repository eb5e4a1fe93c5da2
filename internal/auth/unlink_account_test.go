package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

func TestAccountsAndUnlink(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "ann@example.com", "password123")
		var accounts []map[string]any
		if err := jsonArray(c.Do("GET", "/api/auth/list-accounts", nil).Body, &accounts); err != nil || len(accounts) != 1 || accounts[0]["providerId"] != "credential" {
			t.Fatalf("accounts %v %v", accounts, err)
		}
		if scopes, ok := accounts[0]["scopes"].([]any); !ok || len(scopes) != 0 {
			t.Errorf("scopes should be an empty array: %v", accounts[0])
		}
		if res := c.Do("POST", "/api/auth/unlink-account", map[string]any{"providerId": "credential"}); res.JSON(t)["code"] != "FAILED_TO_UNLINK_LAST_ACCOUNT" {
			t.Errorf("last account: %s", res.Body)
		}
		now := time.Now()
		if err := st.CreateAccount(context.Background(), &store.Account{ID: "gh-row", AccountID: "gh-1", ProviderID: "github",
			UserID: accounts[0]["userId"].(string), CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if res := c.Do("POST", "/api/auth/unlink-account", map[string]any{"providerId": "gitlab"}); res.JSON(t)["code"] != "ACCOUNT_NOT_FOUND" {
			t.Errorf("unknown account: %s", res.Body)
		}
		id := accounts[0]["id"].(string)
		if res := c.Do("GET", "/api/auth/account-info?accountId="+id, nil); res.Status != 400 || res.JSON(t)["code"] != "PROVIDER_NOT_CONFIGURED" {
			t.Errorf("account-info of the password account (Better Auth asks a provider): %d %s", res.Status, res.Body)
		}
		// GitHub is not configured on this server: Better Auth answers the same refusal (the
		// social plugin's tests cover a configured provider's user info).
		if res := c.Do("GET", "/api/auth/account-info?accountId=gh-1", nil); res.Status != 400 || res.JSON(t)["code"] != "PROVIDER_NOT_CONFIGURED" {
			t.Errorf("account-info GET of an unconfigured provider's account: %d %s", res.Status, res.Body)
		}
		if res := app.SignUp(t, "bob@example.com", "password123").Do("POST", "/api/auth/account-info", map[string]any{"accountId": id}); res.Status != 400 {
			t.Errorf("someone else's account: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", "/api/auth/unlink-account", map[string]any{"providerId": "github", "accountId": "gh-1"}); res.Status != 200 {
			t.Errorf("unlink github: %d %s", res.Status, res.Body)
		}
	})
}
