package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/config"
)

func handlerFor(t *testing.T, baseURL string) http.Handler {
	t.Helper()
	cfg, err := config.Load(func(k string) (string, bool) {
		v, ok := map[string]string{"BASE_URL": baseURL, "DATA_DIR": t.TempDir()}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) })
	return New(cfg, Deps{Auth: ok, Trends: ok, Billing: ok})
}

// Every answer, page, asset, API or error, carries the security headers.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	h := handlerFor(t, "http://localhost:8080")
	for _, target := range []string{"/", "/sign-in", "/no-such-page", "/assets/missing.js", "/og-image.png", "/api/auth/get-session", "/api/workspaces", "/api/billing/x", "/_serverFn/x"} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
			got := rec.Header()
			csp := got.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'self'", "script-src 'self';", "frame-ancestors 'none'", "object-src 'none'", "frame-src https://polar.sh https://sandbox.polar.sh"} {
				if !strings.Contains(csp, want) {
					t.Errorf("%s %s: CSP %q lacks %q", method, target, csp, want)
				}
			}
			if strings.Contains(csp, "'unsafe-eval'") || strings.Contains(strings.SplitN(strings.SplitN(csp, "script-src", 2)[1], ";", 2)[0], "'unsafe-inline'") {
				t.Errorf("%s %s: scripts may run inline: %q", method, target, csp)
			}
			for name, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "strict-origin-when-cross-origin"} {
				if got.Get(name) != want {
					t.Errorf("%s %s: %s = %q, want %q", method, target, name, got.Get(name), want)
				}
			}
			if hsts := got.Get("Strict-Transport-Security"); hsts != "" {
				t.Errorf("%s %s: HSTS %q on a plain-http server", method, target, hsts)
			}
		}
	}
}

func TestHSTSWhenBaseURLIsHTTPS(t *testing.T) {
	h := handlerFor(t, "https://sellertrends.example")
	for _, target := range []string{"/", "/api/workspaces"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if hsts := rec.Header().Get("Strict-Transport-Security"); !strings.HasPrefix(hsts, "max-age=") || strings.HasPrefix(hsts, "max-age=0") {
			t.Errorf("%s: Strict-Transport-Security %q", target, hsts)
		}
	}
}
