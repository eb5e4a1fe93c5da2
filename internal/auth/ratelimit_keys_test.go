package auth_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// The rate-limit store keys requests by caller and route pattern: tokens in a path and paths
// that are no route add no rows, so a caller cannot fill the table with keys of their making.
func TestRateLimitKeysOnlyKnownRoutes(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"AUTH_RATE_LIMIT_ENABLED": "true", "AUTH_RATE_LIMIT_STORAGE": "database"})
		c := app.Client(t)
		for i := range 5 {
			c.Do("GET", fmt.Sprintf("/api/auth/reset-password/token%d?callbackURL=/", i), nil)
			c.Do("POST", fmt.Sprintf("/api/auth/no-such-route-%d", i), map[string]any{})
			c.Do("GET", fmt.Sprintf("/api/auth/get-session/extra-%d", i), nil)
		}
		rows, err := st.DB().Query(`select "key" from "rateLimit"`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var keys []string
		for rows.Next() {
			var k string
			rows.Scan(&k)
			keys = append(keys, k)
		}
		if len(keys) != 1 || !strings.HasSuffix(keys[0], "|/reset-password/{token}") {
			t.Errorf("rate-limit keys %q, want only the reset-password route's pattern", keys)
		}
	})
}
