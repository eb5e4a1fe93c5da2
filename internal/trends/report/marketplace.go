package report

import "strings"

// marketplaces maps Amazon's country codes (file-name prefixes) and SP-API marketplace ids to
// domains (formats.md §9). The domain is how a dataset names its marketplace.
var marketplaces = []struct{ code, domain, id string }{
	{"US", "amazon.com", "ATVPDKIKX0DER"}, {"CA", "amazon.ca", "A2EUQ1WTGCTBG2"}, {"MX", "amazon.com.mx", "A1AM78C64UM0Y8"},
	{"BR", "amazon.com.br", "A2Q3Y263D00KWC"}, {"UK", "amazon.co.uk", "A1F83G8C2ARO7P"}, {"DE", "amazon.de", "A1PA6795UKMFR9"},
	{"FR", "amazon.fr", "A13V1IB3VIYZZH"}, {"JP", "amazon.co.jp", "A1VC38T7YXB528"}, {"AU", "amazon.com.au", "A39IBJ37TRP1C6"},
	{"IN", "amazon.in", "A21TJRUUN4KGV"}, {"SG", "amazon.sg", "A19VAU5U5O7RUS"}, {"IT", "amazon.it", "APJ6JRA9NG5V4"},
	{"ES", "amazon.es", "A1RKKUPIHCS9HS"}, {"NL", "amazon.nl", "A1805IZSGTT6HS"}, {"SE", "amazon.se", "A2NODRKZP88ZB9"},
	{"PL", "amazon.pl", "A1C3SOZRARQ6R3"}, {"BE", "amazon.com.be", "AMEN7PMS3EDWL"}, {"IE", "amazon.ie", "A28R8C7NBKEWEA"},
	{"TR", "amazon.com.tr", "A33AVAJ2PDY3EV"}, {"AE", "amazon.ae", "A2VIGQ35RCS4UG"}, {"SA", "amazon.sa", "A17E79C6D8DWNP"},
	{"EG", "amazon.eg", "ARBP9OOSHTCHU"}, {"ZA", "amazon.co.za", "AE08WJ6YKNBMC"},
}

// Walmart is the walmart-tst layout's marketplace.
const Walmart = "walmart.com"

// NormalizeMarketplace accepts a domain ("amazon.de"), a country code ("DE"), an SP-API id or
// "walmart.com", and returns the domain, or "" when it is none of them.
func NormalizeMarketplace(s string) string {
	s = strings.TrimSpace(s)
	l := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(s), "https://"), "www."))
	if l == Walmart {
		return Walmart
	}
	for _, m := range marketplaces {
		if l == m.domain || strings.EqualFold(s, m.code) || s == m.id {
			return m.domain
		}
	}
	if strings.EqualFold(s, "GB") {
		return "amazon.co.uk"
	}
	return ""
}

// departmentMarketplace maps a marketplace-wide department ("Amazon.com") to its domain.
func departmentMarketplace(dept string) string {
	l := strings.ToLower(strings.TrimSpace(dept))
	for _, m := range marketplaces {
		if l == m.domain {
			return m.domain
		}
	}
	return ""
}
