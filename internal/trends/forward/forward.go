// Package forward lets a server that does not own the trends store pass the trends API on to
// the one that does. Several servers share one PostgreSQL for accounts, sessions and
// workspaces, but the trends store (DuckDB under DATA_DIR) is embedded in one process: every
// other server forwards /api/trends, /api/workspaces, uploads and progress to that owner
// (TRENDS_OWNER_URL). The owner checks the forwarded session cookie against the shared
// database itself, so forwarding needs no trust between the servers beyond the network.
package forward

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Unavailable is the answer while the owner cannot be reached (restarting, say).
const Unavailable = "The trends service is restarting or unreachable. Your data is safe; try again in a minute."

// retryAfter is the Retry-After sent with Unavailable, in seconds.
const retryAfter = "10"

// Proxy forwards requests to the trends owner.
type Proxy struct {
	owner  *url.URL
	proxy  *httputil.ReverseProxy
	client *http.Client
	secret []byte // AUTH_SECRET: signs the account deletions sent to the owner
}

// New forwards to owner (scheme and host; any path is ignored).
func New(owner *url.URL, secret []byte) *Proxy {
	target := &url.URL{Scheme: owner.Scheme, Host: owner.Host}
	transport := &http.Transport{
		Proxy:                 nil, // the owner is a neighbour: never through an outbound proxy
		DialContext:           (&net.Dialer{Timeout: 3 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		ResponseHeaderTimeout: 0, // long questions and ?wait=true progress polls answer late
	}
	p := &Proxy{owner: target, client: &http.Client{Transport: transport, Timeout: 3 * time.Second}, secret: secret}
	p.proxy = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.SetXForwarded()
			r.Out.Host = r.In.Host // the owner sees the host the browser used (origin checks, links)
		},
		Transport:     transport,
		FlushInterval: -1, // progress streams and CSV exports reach the browser as they are written
		ErrorHandler:  p.unavailable,
	}
	return p
}

// ServeHTTP forwards one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Uploads and CSV exports pass through for longer than this server's read and write
	// timeouts (server.DefaultTimeouts): as on the owner, progress extends them.
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = httpx.KeepReading(w, r.Body, httpx.LongStream)
	}
	p.proxy.ServeHTTP(httpx.KeepWritingResponse(w, httpx.LongStream), r)
}

// unavailable answers 503 when the owner could not be reached or broke off mid-answer. A
// request the client itself abandoned is only logged.
func (p *Proxy) unavailable(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(r.Context().Err(), context.Canceled) {
		return
	}
	slog.Warn("trends owner unreachable", "owner", p.owner.Host, "path", r.URL.Path, "error", err)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", retryAfter)
	w.WriteHeader(http.StatusServiceUnavailable)
	json.NewEncoder(w).Encode(map[string]string{"code": "TRENDS_UNAVAILABLE", "message": Unavailable})
}

// Health is what /api/health says about the trends store on a forwarding server.
type Health struct {
	Mode      string `json:"mode"`      // "forwarding"
	Owner     string `json:"owner"`     // the owner's address
	Reachable bool   `json:"reachable"` // the owner answered its own health check
	Error     string `json:"error,omitempty"`
}

// Check asks the owner's /api/health.
func (p *Proxy) Check(ctx context.Context) Health {
	h := Health{Mode: "forwarding", Owner: p.owner.String()}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.owner.String()+"/api/health", nil)
	if err != nil {
		h.Error = err.Error()
		return h
	}
	res, err := p.client.Do(req)
	if err != nil {
		h.Error = "not reachable"
		return h
	}
	defer res.Body.Close()
	h.Reachable = res.StatusCode == http.StatusOK
	if !h.Reachable {
		h.Error = res.Status
	}
	return h
}
