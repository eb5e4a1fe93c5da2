package server

import (
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/config"
)

// polarOrigins serve Polar's embedded checkout (web/src/features/billing, @polar-sh/checkout):
// the page frames them and the embed talks to them.
const polarOrigins = "https://polar.sh https://sandbox.polar.sh"

// contentSecurityPolicy is what the React app works under (web/e2e/foundation.test.mjs loads
// its pages and fails on any violation). Scripts come only from our own hashed bundles: the
// shell carries no inline script (the theme class is rendered into <html> by the server).
// Inline styles stay allowed: the checkout embed and Radix's scroll lock inject <style>
// elements, and a style cannot run code. Avatars come from the social providers (https:).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: https:; font-src 'self' data:; connect-src 'self' " + polarOrigins + "; " +
	"frame-src " + polarOrigins + "; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// hsts asks browsers to use https only for a year; sent only when BASE_URL is https (a
// plain-http development server must stay reachable).
const hsts = "max-age=31536000"

// securityHeaders sets the headers every answer carries. A handler may replace one (the
// unsubscribe page sets a stricter policy).
func securityHeaders(cfg *config.Config, next http.Handler) http.Handler {
	https := cfg.BaseURL != nil && strings.EqualFold(cfg.BaseURL.Scheme, "https")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY") // for browsers that predate frame-ancestors
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		if https {
			h.Set("Strict-Transport-Security", hsts)
		}
		next.ServeHTTP(w, r)
	})
}
