package auth

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/sellertrends/sellertrends/internal/ratelimit"
)

// Better Auth's default rule (100 requests per 10 s) and its stricter rules for the paths
// attackers hammer: credentials (3 per 10 s) and mail-sending endpoints (3 per 60 s).
var (
	defaultRule = ratelimit.Rule{Window: 10 * time.Second, Max: 100}
	strict10s   = ratelimit.Rule{Window: 10 * time.Second, Max: 3}
	strict60s   = ratelimit.Rule{Window: 60 * time.Second, Max: 3}
	// NoLimit exempts a route (get-session: every page calls it).
	NoLimit = ratelimit.Rule{}
)

// limited answers 429 with X-Retry-After (Better Auth's header) and Retry-After when the
// caller's IP exceeded the route's rule. The key is the route's pattern, never the raw path, so
// only known routes are counted.
func (s *Service) limited(path string, rule ratelimit.Rule, next http.Handler) http.Handler {
	if !s.cfg.AuthRateLimitEnabled || rule.Max == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, wait, err := s.limiter.Allow(r.Context(), clientIP(r)+"|"+path, rule)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		if !ok {
			secs := strconv.Itoa(int(math.Ceil(wait.Seconds())))
			w.Header().Set("X-Retry-After", secs)
			w.Header().Set("Retry-After", secs)
			writeErr(w, r, ErrTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}
