package auth_test

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// The password-reset and verification-mail requests must not tell, by how long they take,
// whether an address has an account. Each endpoint is asked many times for an address with an
// (unverified) account and for one without, in random order so background work after one try
// falls on both kinds alike; the medians must agree within a margin far below the cost of the
// work an existing account needs (a token row and a mail), which once ran on the request path.
func TestResetAndVerificationTakeTheSameTimeWhetherTheAccountExists(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		// Mail goes to the in-memory outbox: hundreds of mails, no SMTP round trips.
		app := testkit.Server(t, st, map[string]string{"AUTH_RATE_LIMIT_ENABLED": "false", "SMTP_URL": ""})
		app.SignUp(t, "ann@example.com", "password123")
		for _, path := range []string{"/api/auth/request-password-reset", "/api/auth/send-verification-email"} {
			t.Run(strings.TrimPrefix(path, "/api/auth/"), func(t *testing.T) {
				known, unknown := timings(t, app, path)
				mk, mu := median(known), median(unknown)
				margin := mu/2 + 10*time.Microsecond
				t.Logf("median with an account %v, without %v (margin %v)", mk, mu, margin)
				if d := mk - mu; d > margin || -d > margin {
					t.Errorf("the answer for an existing account takes %v, for a missing one %v: the difference tells them apart", mk, mu)
				}
			})
		}
	})
}

// timings asks path for the known and the unknown address, 150 times each, in random order.
func timings(t *testing.T, app *testkit.App, path string) (known, unknown []time.Duration) {
	const tries = 150
	order := make([]bool, 0, 2*tries)
	for i := range 2 * tries {
		order = append(order, i%2 == 0)
	}
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	ask := func(email string) time.Duration {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"email":"`+email+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", app.URL)
		rec := httptest.NewRecorder()
		start := time.Now()
		app.Handler.ServeHTTP(rec, req)
		d := time.Since(start)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", path, email, rec.Code, rec.Body)
		}
		return d
	}
	// Warm both paths (prepared statements, caches) before measuring.
	ask("ann@example.com")
	ask("nobody@example.com")
	for _, k := range order {
		if k {
			known = append(known, ask("ann@example.com"))
		} else {
			unknown = append(unknown, ask("nobody@example.com"))
		}
	}
	return known, unknown
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
