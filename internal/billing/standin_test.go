package billing_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// polarStandIn is a local stand-in for the Polar API calls we make (and the ones
// @polar-sh/better-auth makes through @polar-sh/sdk). It checks the bearer token on every
// request, records each call, keeps its customers, and answers with Polar's status codes and
// complete bodies (testdata/polar: the SDK's response schemas accept them, which the compare
// test relies on).
type polarStandIn struct {
	URL       string
	token     string
	mu        sync.Mutex
	calls     []call
	fail      map[string][]int // "METHOD /path" -> statuses to answer before succeeding
	customers []map[string]any
	nextID    int
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

// take returns the calls recorded since the last take, and forgets them.
func (p *polarStandIn) take() []call {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.calls
	p.calls = nil
	return out
}

// fixture reads a complete Polar object from testdata/polar.
func fixture(name string) map[string]any {
	raw, err := os.ReadFile("testdata/polar/" + name + ".json")
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(err)
	}
	return m
}

func (p *polarStandIn) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	c := call{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization")}
	json.Unmarshal(raw, &c.Body)
	route := r.Method + " " + r.URL.Path
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, c)
	var status int
	if q := p.fail[route]; len(q) > 0 {
		status, p.fail[route] = q[0], q[1:]
	}
	w.Header().Set("Content-Type", "application/json")
	if status != 0 {
		w.WriteHeader(status)
		io.WriteString(w, `{"error":"PolarRequestValidationError","detail":[{"loc":["body","products"],"msg":"Product is archived.","type":"value_error"}]}`)
		return
	}
	portal := strings.HasPrefix(r.URL.Path, "/v1/customer-portal/")
	if !portal && c.Auth != "Bearer "+p.token || portal && c.Auth != "Bearer portal-session-token" {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "Unauthorized", "detail": "Unauthorized"})
		return
	}
	p.answer(w, r, route, c.Body)
}

var notFoundBody = map[string]any{"error": "ResourceNotFound", "detail": "Not found"}

// answer serves one call; p.mu is held.
func (p *polarStandIn) answer(w http.ResponseWriter, r *http.Request, route string, body map[string]any) {
	external := strings.TrimPrefix(r.URL.Path, "/v1/customers/external/")
	switch {
	case route == "POST /v1/checkouts/":
		co := fixture("checkout")
		for _, k := range []string{"metadata", "embed_origin", "success_url", "return_url", "allow_discount_codes", "discount_id", "external_customer_id", "customer_id"} {
			if v, ok := body[k]; ok && v != nil {
				co[k] = v
			}
		}
		writeJSON(w, http.StatusCreated, co)
	case route == "GET /v1/customers/":
		items := []any{}
		for _, cu := range p.customers {
			if cu["email"] == r.URL.Query().Get("email") {
				items = append(items, cu)
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"items": items, "pagination": map[string]any{"total_count": len(items), "max_page": 1}})
	case route == "POST /v1/customers/":
		p.nextID++
		cu := fixture("customer")
		cu["id"], cu["email"], cu["name"], cu["external_id"] = fmt.Sprintf("cus_%d", p.nextID), body["email"], body["name"], body["external_id"]
		p.customers = append(p.customers, cu)
		writeJSON(w, http.StatusCreated, cu)
	case strings.HasSuffix(r.URL.Path, "/state") && r.Method == "GET":
		cu := p.customer("external_id", strings.TrimSuffix(external, "/state"))
		if cu == nil {
			writeJSON(w, http.StatusNotFound, notFoundBody)
			return
		}
		st := fixture("customer_state")
		for k, v := range cu {
			st[k] = v
		}
		writeJSON(w, http.StatusOK, st)
	case strings.HasPrefix(r.URL.Path, "/v1/customers/external/"), strings.HasPrefix(r.URL.Path, "/v1/customers/"):
		key, value := "external_id", external
		if external == r.URL.Path {
			key, value = "id", strings.TrimPrefix(r.URL.Path, "/v1/customers/")
		}
		cu := p.customer(key, value)
		if cu == nil {
			writeJSON(w, http.StatusNotFound, notFoundBody)
			return
		}
		switch r.Method {
		case "PATCH":
			for k, v := range body {
				cu[k] = v
			}
			writeJSON(w, http.StatusOK, cu)
		case "DELETE":
			p.customers = removeCustomer(p.customers, cu)
			w.WriteHeader(http.StatusNoContent)
		default:
			writeJSON(w, http.StatusOK, cu)
		}
	case route == "POST /v1/customer-sessions/":
		cu := p.customer("external_id", fmt.Sprint(body["external_customer_id"]))
		if cu == nil {
			writeJSON(w, http.StatusNotFound, notFoundBody)
			return
		}
		s := fixture("customer_session")
		s["customer_id"], s["customer"] = cu["id"], cu
		if v, ok := body["return_url"]; ok {
			s["return_url"] = v
		}
		writeJSON(w, http.StatusCreated, s)
	case route == "GET /v1/customer-portal/subscriptions/", route == "GET /v1/customer-portal/orders/":
		writeJSON(w, http.StatusOK, map[string]any{"items": []any{}, "pagination": map[string]any{"total_count": 0, "max_page": 0}})
	default:
		writeJSON(w, http.StatusNotFound, notFoundBody)
	}
}

func (p *polarStandIn) customer(key, value string) map[string]any {
	for _, cu := range p.customers {
		if fmt.Sprint(cu[key]) == value {
			return cu
		}
	}
	return nil
}

func removeCustomer(list []map[string]any, cu map[string]any) []map[string]any {
	out := list[:0]
	for _, x := range list {
		if x["id"] != cu["id"] {
			out = append(out, x)
		}
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
