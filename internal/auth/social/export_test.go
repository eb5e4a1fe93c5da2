package social

import "github.com/sellertrends/sellertrends/internal/auth/social/providers"

// PointAt sends every provider's endpoints to the stand-in at base (/{id}/authorize, /token,
// /user, /emails, /photo) for servers built until the returned restore is called.
func PointAt(base string) (restore func()) {
	testEndpoints = func(p *providers.Provider) {
		pre := base + "/" + p.ID
		p.AuthURL, p.TokenURL, p.UserInfoURL = pre+"/authorize", pre+"/token", pre+"/user"
		p.EmailsURL, p.PhotoURL, p.TokenInfoURL = pre+"/emails", pre+"/photo", pre+"/tokeninfo"
		if p.IDToken != nil && p.IDToken.JWKSURL != "" {
			p.IDToken.JWKSURL = pre + "/jwks"
		}
	}
	return func() { testEndpoints = nil }
}
