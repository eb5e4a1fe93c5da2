package auth

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/ratelimit"
)

// Better Auth's default rule (100 requests per 10 s) and its stricter special rules for the
// paths attackers hammer: credentials and mail-sending endpoints.
var (
	defaultRule = ratelimit.Rule{Window: 10 * time.Second, Max: 100}
	strictRules = map[string]ratelimit.Rule{
		"/sign-in/email":           {Window: 10 * time.Second, Max: 3},
		"/sign-up/email":           {Window: 10 * time.Second, Max: 3},
		"/change-password":         {Window: 10 * time.Second, Max: 3},
		"/change-email":            {Window: 10 * time.Second, Max: 3},
		"/request-password-reset":  {Window: 60 * time.Second, Max: 3},
		"/forget-password":         {Window: 60 * time.Second, Max: 3},
		"/send-verification-email": {Window: 60 * time.Second, Max: 3},
	}
)

func ruleFor(path string) ratelimit.Rule {
	if r, ok := strictRules[path]; ok {
		return r
	}
	return defaultRule
}

// rateLimit answers 429 with X-Retry-After (Better Auth's header) and Retry-After when the
// caller's IP exceeded the rule of the path. get-session is not limited: every page calls it.
func (s *Service) rateLimit(next http.Handler) http.Handler {
	if !s.cfg.AuthRateLimitEnabled {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, BasePath)
		if path == "/get-session" || path == "/ok" {
			next.ServeHTTP(w, r)
			return
		}
		ok, wait, err := s.limiter.Allow(r.Context(), clientIP(r)+"|"+path, ruleFor(path))
		if err != nil {
			writeErr(w, r, err)
			return
		}
		if !ok {
			secs := strconv.Itoa(int(math.Ceil(wait.Seconds())))
			w.Header().Set("X-Retry-After", secs)
			w.Header().Set("Retry-After", secs)
			writeErr(w, r, errTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}
