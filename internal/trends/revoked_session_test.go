package trends_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// After sign-out, revocation, a password change that ends the other sessions, or deletion, the
// old cookies (session token and the 60 s session-data cache, which stays valid on its own)
// can change nothing and read nothing sensitive, in /api/auth and in the product's API.
func TestOldCookiesCannotWriteAfterTheSessionEnds(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		ends := map[string]func(t *testing.T, victim, other *testkit.Client){
			"sign-out": func(t *testing.T, victim, _ *testkit.Client) {
				victim.Do("POST", "/api/auth/sign-out", map[string]any{})
			},
			"revoke-other-sessions": func(t *testing.T, _, other *testkit.Client) {
				if res := other.Do("POST", "/api/auth/revoke-other-sessions", map[string]any{}); res.Status != http.StatusOK {
					t.Fatalf("revoke: %d %s", res.Status, res.Body)
				}
			},
			"change-password": func(t *testing.T, _, other *testkit.Client) {
				if res := other.Do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "password123", "newPassword": "password456", "revokeOtherSessions": true}); res.Status != http.StatusOK {
					t.Fatalf("change-password: %d %s", res.Status, res.Body)
				}
			},
			"delete-user": func(t *testing.T, victim, _ *testkit.Client) {
				if res := victim.Do("POST", "/api/auth/delete-user", map[string]any{"password": "password123"}); res.Status != http.StatusOK {
					t.Fatalf("delete-user: %d %s", res.Status, res.Body)
				}
			},
		}
		for name, end := range ends {
			t.Run(name, func(t *testing.T) {
				email := name + "@example.com"
				victim := app.SignUp(t, email, "password123")
				ws := personal(t, victim)
				ds := importSeries(t, victim, app, ws)
				item := victim.Do("POST", "/api/workspaces/"+ws+"/watchlist", map[string]string{"kind": "term", "value": "yoga mat"}).JSON(t)["id"].(string)
				other := app.Client(t)
				if res := other.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": email, "password": "password123"}); res.Status != http.StatusOK {
					t.Fatalf("second sign-in: %d", res.Status)
				}
				u, _ := url.Parse(app.URL)
				saved := victim.HTTP.Jar.Cookies(u)
				if len(saved) < 2 {
					t.Fatalf("cookies %v: want the session token and the session-data cache", saved)
				}

				end(t, victim, other)

				// Each request gets the old cookies afresh: a refused one expires them in the jar.
				withOld := func() *testkit.Client {
					c := app.Client(t)
					c.HTTP.Jar.SetCookies(u, saved)
					return c
				}
				// A plain read may still answer from the cache (Better Auth's 60 s rule): proof
				// that the old cookies are sent and the cache is in play for what follows.
				if res := withOld().Do("GET", "/api/trends/demo/datasets", nil); res.Status != http.StatusOK {
					t.Fatalf("plain read with the cached cookie: %d", res.Status)
				}
				for _, req := range []struct {
					method, path string
					body         any
				}{
					{"POST", "/api/workspaces/" + ws + "/watchlist", map[string]string{"kind": "term", "value": "desk lamp"}},
					{"DELETE", "/api/workspaces/" + ws + "/watchlist/" + item, nil},
					{"DELETE", "/api/trends/" + ws + "/datasets/" + ds + "/periods/2026-04-05", nil},
					{"POST", "/api/trends/" + ws + "/imports", "--x--"},
					{"PUT", "/api/alerts/settings", map[string]any{"frequency": "off", "threshold": 20}},
					{"GET", "/api/alerts/settings", nil},
					{"GET", "/api/trends/" + ws + "/datasets/" + ds + "/terms.csv", nil},
					{"POST", "/api/auth/update-user", map[string]any{"name": "Mallory"}},
					{"POST", "/api/auth/link-social", map[string]any{"provider": "github"}},
					{"POST", "/api/auth/revoke-sessions", map[string]any{}},
					{"GET", "/api/auth/list-sessions", nil},
				} {
					res := withOld().Do(req.method, req.path, req.body)
					if res.Status != http.StatusUnauthorized {
						t.Errorf("%s %s with the old cookies: %d %s, want 401", req.method, req.path, res.Status, res.Body)
					}
				}
				if name == "delete-user" {
					// A plain read that makes a missing personal workspace must not bring the
					// deleted account's workspace back.
					if res := withOld().Do("GET", "/api/workspaces", nil); res.Status != http.StatusUnauthorized {
						t.Errorf("workspaces of a deleted account: %d %s, want 401", res.Status, res.Body)
					}
					var n int
					if err := st.DB().QueryRow(st.Rebind(`select count(*) from "workspace" where "id" = ?`), ws).Scan(&n); err != nil || n != 0 {
						t.Errorf("the deleted account's workspace is back: %d (%v)", n, err)
					}
				}
			})
		}
	})
}
