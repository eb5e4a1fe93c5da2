package auth_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// BenchmarkGetSession measures get-session in process, from the cookie cache and from the
// database; allocations per request are what the garbage collector pays for under load.
func BenchmarkGetSession(b *testing.B) {
	app := testkit.Server(b, testkit.SQLite(b), nil)
	c := app.SignUp(b, "bench@example.com", "password123")
	cookie := "better-auth.session_token=" + c.Cookie("better-auth.session_token") + "; better-auth.session_data=" + c.Cookie("better-auth.session_data")
	h := app.Handler
	for _, path := range []string{"/api/auth/get-session", "/api/auth/get-session?disableCookieCache=true"} {
		b.Run(path, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Header.Set("Cookie", cookie)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 || w.Body.Len() < 100 {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
	}
}
