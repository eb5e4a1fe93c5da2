package config

import (
	"net/url"
	"strings"
)

// Billing is Polar's configuration. Without an access token billing is off: checkout answers a
// clear error and every workspace is on the free plan or unlimited (PlansEnforced).
type Billing struct {
	AccessToken   string            // POLAR_ACCESS_TOKEN
	Server        string            // POLAR_SERVER: sandbox | production
	APIURL        *url.URL          // POLAR_API_URL, or the server's API
	WebhookSecret string            // POLAR_WEBHOOK_SECRET: its bytes are the HMAC key, as Polar signs
	SuccessURL    string            // POLAR_SUCCESS_URL ({CHECKOUT_ID} is replaced by Polar)
	Products      map[string]string // POLAR_PRODUCTS: plan slug -> Polar product id
	PlansEnforced bool              // PLANS_ENFORCED
}

// Enabled reports whether checkouts can be created.
func (b Billing) Enabled() bool { return b.AccessToken != "" }

func (p *parser) billing() Billing {
	b := Billing{
		AccessToken:   p.str("POLAR_ACCESS_TOKEN", ""),
		Server:        p.oneOf("POLAR_SERVER", "sandbox", "sandbox", "production"),
		WebhookSecret: p.str("POLAR_WEBHOOK_SECRET", ""),
		SuccessURL:    p.str("POLAR_SUCCESS_URL", ""),
		Products:      p.products("POLAR_PRODUCTS"),
	}
	api := "https://sandbox-api.polar.sh"
	if b.Server == "production" {
		api = "https://api.polar.sh"
	}
	b.APIURL = p.url("POLAR_API_URL", api)
	if b.SuccessURL != "" {
		if u, err := url.Parse(b.SuccessURL); err != nil || !u.IsAbs() {
			p.fail("POLAR_SUCCESS_URL", "%q is not an absolute URL", b.SuccessURL)
		}
	}
	// Plans are enforced by default once billing is configured: without it there is nothing
	// to buy, so everything is open unless the operator says otherwise.
	b.PlansEnforced = p.boolean("PLANS_ENFORCED", b.Enabled())
	return b
}

// products parses "pro:<id>,team:<id>".
func (p *parser) products(name string) map[string]string {
	out := map[string]string{}
	v, ok := p.raw(name)
	if !ok {
		return out
	}
	for _, pair := range strings.Split(v, ",") {
		slug, id, found := strings.Cut(strings.TrimSpace(pair), ":")
		slug, id = strings.TrimSpace(slug), strings.TrimSpace(id)
		if !found || slug == "" || id == "" {
			p.fail(name, "%q is not a slug:productId pair", pair)
			return out
		}
		if slug != "pro" && slug != "team" {
			p.fail(name, "%q: the plans are pro and team", slug)
			return out
		}
		out[slug] = id
	}
	return out
}
