package social

import "github.com/sellertrends/sellertrends/internal/auth/social/providers"

// PointAt sends every provider's endpoints to the stand-in at base (see pointAt) for servers
// built until the returned restore is called.
func PointAt(base string) (restore func()) {
	testEndpoints = func(p *providers.Provider) { pointAt(p, base) }
	return func() { testEndpoints = nil }
}
