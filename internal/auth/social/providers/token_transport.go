package providers

import (
	"io"
	"net/http"
	"net/url"
	"strings"
)

// TokenClient is c with the provider's token-endpoint extras that x/oauth2 cannot add itself:
// headers (reddit's User-Agent) and the client id under the provider's own name on every grant,
// refresh included (tiktok's client_key).
func (p *Provider) TokenClient(c *http.Client) *http.Client {
	if len(p.TokenHeaders) == 0 && p.ClientIDName == "" {
		return c
	}
	out := *c
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	out.Transport = &tokenTransport{p: p, base: base}
	return &out
}

type tokenTransport struct {
	p    *Provider
	base http.RoundTripper
}

func (t *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.URL.String() != t.p.TokenURL {
		return t.base.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	for k, v := range t.p.TokenHeaders {
		r.Header.Set(k, v)
	}
	if t.p.ClientIDName != "" && req.Body != nil {
		raw, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		form, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, err
		}
		if !form.Has(t.p.ClientIDName) {
			form.Set(t.p.ClientIDName, t.p.ClientID)
		}
		body := form.Encode()
		r.Body, r.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }
	}
	return t.base.RoundTrip(r)
}
