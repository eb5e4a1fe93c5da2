package billing_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/testkit/authcompare"
)

// The same requests go to a Better Auth 1.7 server running Polar's plugin (@polar-sh/better-auth
// through @polar-sh/sdk, testdata/betterauth-polar.mjs) and to ours, each with its own instance
// of the Polar stand-in (same code, same answers). For every step the test compares, field by
// field: the answer to the client (status and body; ids, tokens and times by kind), the calls
// that reached Polar (method, path, query, JSON body; ids by kind, absent and null alike), and
// the stand-in's customers afterwards. Differences we chose are listed with their reason in the
// step (`accept`) and in the README.
func TestSamePolarCallsAsBetterAuth(t *testing.T) {
	modules, _ := filepath.Abs("../../web/node_modules")
	for _, pkg := range []string{"better-auth", "@polar-sh/better-auth", "@polar-sh/sdk", "pg"} {
		if _, err := os.Stat(filepath.Join(modules, pkg)); err != nil {
			t.Fatalf("%s is not installed in web/node_modules (run `cd web && npm ci`): %v", pkg, err)
		}
	}
	baPolar, ourPolar := newPolar(t, token), newPolar(t, token)
	ba := startBetterAuthPolar(t, baPolar.URL)
	ours := testkit.Server(t, testkit.SQLite(t), billingEnv(ourPolar))
	sides := []*side{{name: "better-auth", base: ba, polar: baPolar}, {name: "sellertrends", base: ours.URL, polar: ourPolar}}
	for _, s := range sides {
		s.jars = map[string]http.CookieJar{}
	}
	for _, st := range polarSteps() {
		var got []seen
		for _, s := range sides {
			got = append(got, s.do(t, st))
		}
		a, b := got[0], got[1]
		if a.status != b.status || !reflect.DeepEqual(a.body, b.body) && !st.acceptAnswer {
			t.Errorf("%s: answers differ\n  better-auth:  %d %s\n  sellertrends: %d %s", st.name, a.status, a.raw, b.status, b.raw)
		}
		if !reflect.DeepEqual(a.calls, b.calls) && st.accept == "" {
			t.Errorf("%s: calls to Polar differ\n  better-auth:  %s\n  sellertrends: %s", st.name, show(a.calls), show(b.calls))
		}
		if st.accept != "" && reflect.DeepEqual(a.calls, b.calls) {
			t.Errorf("%s: the calls no longer differ; drop the accepted difference (%s)", st.name, st.accept)
		}
		if !reflect.DeepEqual(a.customers, b.customers) {
			t.Errorf("%s: Polar's customers differ afterwards\n  better-auth:  %s\n  sellertrends: %s", st.name, show(a.customers), show(b.customers))
		}
	}
}

// polarStep is one request, sent by a named client (each has its own cookies; "anon" none).
type polarStep struct {
	name, client, method, path string
	body                       any
	accept                     string // why the calls to Polar may differ ("" they may not)
	acceptAnswer               bool   // the answer's body may differ (its status may not)
}

func polarSteps() []polarStep {
	pw := "password123"
	return []polarStep{
		{name: "sign-up creates the customer", client: "buyer", method: "POST", path: "/api/auth/sign-up/email", body: map[string]any{"email": "buyer@example.com", "password": pw, "name": "Buyer"},
			accept: "the plugin creates the customer without an external id, lists by email again and then sets it; ours creates it with the external id in one call (the customers afterwards are compared)"},
		{name: "checkout anonymous", client: "anon", method: "POST", path: "/api/auth/checkout", body: map[string]any{"slug": "pro"}},
		{name: "checkout unknown slug", client: "buyer", method: "POST", path: "/api/auth/checkout", body: map[string]any{"slug": "enterprise"}},
		{name: "checkout bad embedOrigin", client: "buyer", method: "POST", path: "/api/auth/checkout", body: map[string]any{"slug": "pro", "embedOrigin": "not a url"}},
		{name: "checkout bad metadata", client: "buyer", method: "POST", path: "/api/auth/checkout", body: map[string]any{"slug": "pro", "metadata": map[string]any{strings.Repeat("k", 41): "v"}}},
		{name: "checkout by slug with a reference", client: "buyer", method: "POST", path: "/api/auth/checkout",
			body: map[string]any{"slug": "pro", "redirect": false, "referenceId": "personal-{user}", "embedOrigin": "http://localhost:3000", "metadata": map[string]any{"seats": 2, "gift": false, "note": "hi"}}},
		{name: "checkout by product ids", client: "buyer", method: "POST", path: "/api/auth/checkout",
			body: map[string]any{"products": []string{proID, teamID}, "referenceId": "personal-{user}", "allowDiscountCodes": false, "discountId": "disc_1"}},
		{name: "checkout without a reference", client: "buyer", method: "POST", path: "/api/auth/checkout", body: map[string]any{"products": proID},
			accept: "ours always names the workspace whose plan the purchase sets (metadata.referenceId: the buyer's personal workspace); the plugin sends no reference"},
		{name: "portal", client: "buyer", method: "POST", path: "/api/auth/customer/portal", body: map[string]any{"redirect": false}},
		{name: "portal by GET", client: "buyer", method: "GET", path: "/api/auth/customer/portal"},
		{name: "portal anonymous", client: "anon", method: "GET", path: "/api/auth/customer/portal"},
		{name: "customer state", client: "buyer", method: "GET", path: "/api/auth/customer/state"},
		{name: "subscriptions list", client: "buyer", method: "GET", path: "/api/auth/customer/subscriptions/list?page=1&limit=5&active=true"},
		{name: "orders list", client: "buyer", method: "GET", path: "/api/auth/customer/orders/list?page=2&limit=10&productBillingType=recurring"},
		{name: "update-user keeps the customer in step", client: "buyer", method: "POST", path: "/api/auth/update-user", body: map[string]any{"name": "Buyer Two"}},
		{name: "delete-user deletes the customer", client: "buyer", method: "POST", path: "/api/auth/delete-user", body: map[string]any{"password": pw},
			accept: "the plugin finds the customer by email and deletes it by id; ours deletes it by external id (the customers afterwards are compared)"},
	}
}

// side is one server under comparison with its own stand-in.
type side struct {
	name, base string
	polar      *polarStandIn
	jars       map[string]http.CookieJar
	user       string // the buyer's id once signed up
}

// seen is what one step did on one side, normalised for comparison.
type seen struct {
	status    int
	raw       []byte
	body      any
	calls     []any
	customers []any
}

func (s *side) do(t *testing.T, st polarStep) seen {
	t.Helper()
	s.polar.take()
	var rd io.Reader
	if st.body != nil {
		raw, _ := json.Marshal(st.body)
		rd = strings.NewReader(strings.ReplaceAll(string(raw), "{user}", s.user))
	}
	req, _ := http.NewRequest(st.method, s.base+st.path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", s.base)
	cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if st.client != "anon" {
		if s.jars[st.client] == nil {
			s.jars[st.client], _ = cookiejar.New(nil)
		}
		cl.Jar = s.jars[st.client]
	}
	res, err := cl.Do(req)
	if err != nil {
		t.Fatalf("%s on %s: %v", st.name, s.name, err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var body any
	json.Unmarshal(raw, &body)
	if m, ok := body.(map[string]any); ok && s.user == "" {
		if u, ok := m["user"].(map[string]any); ok {
			s.user, _ = u["id"].(string)
		}
	}
	out := seen{status: res.StatusCode, raw: raw, body: s.normal(body, "")}
	if m, ok := out.body.(map[string]any); ok && m["code"] == "VALIDATION_ERROR" {
		m["message"] = "<zod's wording>" // a validation failure's wording is not ours word for word
	}
	if res.StatusCode == http.StatusUnauthorized && len(raw) == 0 {
		out.body = map[string]any{"code": "UNAUTHORIZED", "message": "Unauthorized"} // Better Auth's bare 401
	}
	for _, c := range s.polar.take() {
		q := c.Query
		if vals, err := urlValues(q); err == nil {
			q = vals
		}
		out.calls = append(out.calls, s.normal(map[string]any{"call": c.Method + " " + c.Path, "query": q, "auth": c.Auth, "body": dropNulls(c.Body)}, ""))
	}
	s.polar.mu.Lock()
	for _, cu := range s.polar.customers {
		out.customers = append(out.customers, s.normal(map[string]any{"email": cu["email"], "name": cu["name"], "external_id": cu["external_id"]}, ""))
	}
	s.polar.mu.Unlock()
	return out
}

// normal replaces what differs between two correct servers: the user's id by <user>, other ids
// and tokens by their kind, times by <time>.
func (s *side) normal(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			out[k] = s.normal(val, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = s.normal(val, key)
		}
		return out
	case string:
		x = strings.ReplaceAll(x, s.base, "<base>")
		if s.user != "" {
			x = strings.ReplaceAll(x, s.user, "<user>")
		}
		if x != v {
			return x
		}
		if _, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return "<time>"
		}
		switch key {
		case "id", "token", "userId":
			return "<" + key + ">"
		}
	}
	return v
}

// dropNulls treats an absent field and a null one alike (the SDK leaves undefined fields out).
func dropNulls(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

// urlValues sorts a query string's parameters.
func urlValues(q string) (string, error) {
	if q == "" {
		return "", nil
	}
	parts := strings.Split(q, "&")
	sort.Strings(parts)
	return strings.Join(parts, "&"), nil
}

func show(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

func startBetterAuthPolar(t *testing.T, polarURL string) string {
	t.Helper()
	url, schema := testkit.PostgresSchema(t)
	products, _ := json.Marshal([]map[string]string{{"slug": "pro", "productId": proID}, {"slug": "team", "productId": teamID}})
	return authcompare.Node(t, "testdata/betterauth-polar.mjs", []string{url, schema, polarURL},
		"POLAR_ACCESS_TOKEN="+token, "POLAR_PRODUCTS_JSON="+string(products),
		"POLAR_SUCCESS_URL="+billingEnv(&polarStandIn{})["POLAR_SUCCESS_URL"])
}
