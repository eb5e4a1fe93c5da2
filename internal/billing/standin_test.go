package billing_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// polarStandIn is a local stand-in for the Polar API calls we make. It checks the bearer token
// on every request, records each call, and answers with Polar's status codes and bodies.
type polarStandIn struct {
	URL   string
	token string
	mu    sync.Mutex
	calls []call
	fail  map[string][]int // "METHOD /path" -> statuses to answer before succeeding
}

type call struct {
	Method, Path, Query, Auth string
	Body                      map[string]any
}

func newPolar(t *testing.T, token string) *polarStandIn {
	p := &polarStandIn{token: token, fail: map[string][]int{}}
	ts := httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(ts.Close)
	p.URL = ts.URL
	return p
}

func (p *polarStandIn) failNext(route string, statuses ...int) {
	p.mu.Lock()
	p.fail[route] = append(p.fail[route], statuses...)
	p.mu.Unlock()
}

func (p *polarStandIn) recorded(method, path string) []call {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []call
	for _, c := range p.calls {
		if c.Method == method && c.Path == path {
			out = append(out, c)
		}
	}
	return out
}

func (p *polarStandIn) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	c := call{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization")}
	json.Unmarshal(raw, &c.Body)
	route := r.Method + " " + r.URL.Path
	p.mu.Lock()
	p.calls = append(p.calls, c)
	var status int
	if q := p.fail[route]; len(q) > 0 {
		status, p.fail[route] = q[0], q[1:]
	}
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if status != 0 {
		w.WriteHeader(status)
		io.WriteString(w, `{"error":"PolarRequestValidationError","detail":[{"loc":["body","products"],"msg":"Product is archived.","type":"value_error"}]}`)
		return
	}
	portal := strings.HasPrefix(r.URL.Path, "/v1/customer-portal/")
	if !portal && c.Auth != "Bearer "+p.token || portal && c.Auth != "Bearer portal-session-token" {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"Unauthorized","detail":"Unauthorized"}`)
		return
	}
	switch {
	case route == "POST /v1/checkouts/":
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": "co_1", "url": "https://sandbox.polar.sh/checkout/polar_c_123", "status": "open",
			"client_secret": "polar_c_123", "products": c.Body["products"], "metadata": c.Body["metadata"], "embed_origin": c.Body["embed_origin"]})
	case route == "GET /v1/customers/":
		io.WriteString(w, `{"items":[],"pagination":{"total_count":0,"max_page":1}}`)
	case route == "POST /v1/customers/":
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": "cus_1", "email": c.Body["email"], "name": c.Body["name"], "external_id": c.Body["external_id"]})
	case strings.HasPrefix(route, "PATCH /v1/customers/external/"):
		json.NewEncoder(w).Encode(map[string]any{"id": "cus_1", "email": c.Body["email"]})
	case strings.HasPrefix(route, "DELETE /v1/customers/external/"):
		w.WriteHeader(http.StatusNoContent)
	case route == "POST /v1/customer-sessions/":
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id":"cs_1","token":"portal-session-token","customer_portal_url":"https://sandbox.polar.sh/acme/portal?customer_session_token=x"}`)
	case strings.HasSuffix(r.URL.Path, "/state"):
		io.WriteString(w, `{"id":"cus_1","active_subscriptions":[],"granted_benefits":[],"active_meters":[]}`)
	case route == "GET /v1/customer-portal/subscriptions/", route == "GET /v1/customer-portal/orders/":
		io.WriteString(w, `{"items":[{"id":"x1"}],"pagination":{"total_count":1,"max_page":1}}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":"ResourceNotFound","detail":"Not found"}`)
	}
}
