// Package authcompare sends the same request sequences to a Better Auth 1.7 server (the npm
// package, started by the test) and to ours, and reports every answer that differs: status,
// error code and message, body shape and values (ids, tokens and codes by the order they first
// appear, times as times), the redirect target, which cookies are set or expired, and whether
// set-auth-token is sent. The core's compare test and each plugin's use it.
package authcompare

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Step is one request of a sequence, sent by a named client. Each client has its own cookies,
// except "anon" and "device", which never keep any; every client but "device" and "server"
// sends the target's Origin. Path, Raw, Header values and SQL may use {var} placeholders.
type Step struct {
	Name, Client, Method, Path string
	Body                       any      // sent as JSON
	Raw                        string   // sent as is, instead of Body
	ContentType                string   // default application/json when there is a body
	Header                     []string // name, value pairs; an empty value removes the header
	Save                       map[string]string
	// Mail, instead of a request: the newest link mailed to Mail[0] containing Mail[1] is
	// saved, as a path under the server, in the var Mail[2].
	Mail   []string
	SQL    string        // instead of a request: SQL run on the server's database
	Pause  time.Duration // before the step, on both servers' real clocks
	Accept string        // why an expected difference is accepted ("" none)
	// OnlyOurs marks a route only our server has (a spec alias): Better Auth's answer is not compared.
	OnlyOurs bool
}

// Target is one server under comparison.
type Target struct {
	Name, Base string
	DB         *sql.DB
	// Link returns the newest link mailed to `to` that contains substr.
	Link    func(t testing.TB, to, substr string) string
	clients map[string]*http.Client
	vars    map[string]string
	labels  map[string]string
}

// mailedToken finds the token of a mailed link (?token= or /reset-password/<token>).
var mailedToken = regexp.MustCompile(`[?&]token=([^&#]+)|/reset-password/([^?#]+)`)

// Observed is one answer, normalised.
type Observed struct {
	Status    int
	Raw       []byte
	Body      any
	Location  string
	Cookies   map[string]string // better-auth cookie name -> "set" or "expired"
	AuthToken bool
}

// Options tune the normalisation for a plugin's answers.
type Options struct {
	Volatile map[string]bool // extra keys whose values each server makes up
	TimeKeys map[string]bool // extra keys holding times
	Ignore   map[string]bool // keys left out of the comparison (fields of plugins only one side runs)
	// Rewrite, when set, sees every string value (key "Location" for the redirect target) before
	// the normalisation: a plugin's test puts values each server makes up inside a URL in order.
	Rewrite func(key, value string) string
}

// Run sends every step to both targets in turn and reports the differences.
func Run(t *testing.T, ref, ours *Target, steps []Step, opt Options) {
	t.Helper()
	n := normaliser{opt: opt}
	for _, s := range []*Target{ref, ours} {
		s.clients, s.vars, s.labels = map[string]*http.Client{}, map[string]string{}, map[string]string{}
	}
	for _, st := range steps {
		if st.Pause > 0 {
			time.Sleep(st.Pause) // protocol intervals (device polling) on the servers' real clocks
		}
		a, b := ref.do(t, st, n), ours.do(t, st, n)
		if d := Diff(a, b, st); d != "" {
			t.Errorf("%s: %s\n  %s: %d %s %s %v\n  %s: %d %s %s %v", st.Name, d, ref.Name, a.Status, a.Raw, a.Location, a.Cookies,
				ours.Name, b.Status, b.Raw, b.Location, b.Cookies)
		}
	}
}

func (s *Target) client(name string) *http.Client {
	if c, ok := s.clients[name]; ok {
		return c
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if name != "device" && name != "anon" {
		c.Jar, _ = cookiejar.New(nil)
	}
	s.clients[name] = c
	return c
}

func (s *Target) expand(v string) string {
	for k, val := range s.vars {
		v = strings.ReplaceAll(v, "{"+k+"}", val)
	}
	return v
}

func (s *Target) do(t *testing.T, st Step, n normaliser) Observed {
	t.Helper()
	switch {
	case st.SQL != "":
		if _, err := s.DB.Exec(s.expand(st.SQL)); err != nil {
			t.Fatalf("%s on %s: %v", st.Name, s.Name, err)
		}
		return Observed{}
	case st.Mail != nil:
		link := s.Link(t, st.Mail[0], st.Mail[1])
		s.vars[st.Mail[2]] = strings.TrimPrefix(link, s.Base)
		if m := mailedToken.FindStringSubmatch(link); m != nil {
			tok, _ := url.QueryUnescape(m[1] + m[2])
			s.vars[st.Mail[2]+"Token"] = tok
			s.label(tok) // so a redirect carrying it compares
		}
		return Observed{}
	}
	var rd io.Reader
	ctype := st.ContentType
	switch {
	case st.Raw != "":
		rd = strings.NewReader(s.expand(st.Raw))
	case st.Body != nil:
		raw, _ := json.Marshal(st.Body)
		rd = strings.NewReader(s.expand(string(raw)))
	}
	if rd != nil && ctype == "" {
		ctype = "application/json"
	}
	req, err := http.NewRequest(st.Method, s.Base+s.expand(st.Path), rd)
	if err != nil {
		t.Fatalf("%s: %v", st.Name, err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if st.Client != "device" && st.Client != "server" {
		req.Header.Set("Origin", s.Base)
	}
	for i := 0; i+1 < len(st.Header); i += 2 {
		if v := s.expand(st.Header[i+1]); v != "" {
			req.Header.Set(st.Header[i], v)
		} else {
			req.Header.Del(st.Header[i])
		}
	}
	res, err := s.client(st.Client).Do(req)
	if err != nil {
		t.Fatalf("%s on %s: %v", st.Name, s.Name, err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	o := Observed{Status: res.StatusCode, Raw: bytes.TrimSpace(raw), AuthToken: res.Header.Get("set-auth-token") != "",
		Cookies: map[string]string{}}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") && len(o.Raw) > 0 {
		_ = json.Unmarshal(o.Raw, &o.Body)
	}
	for _, c := range res.Cookies() {
		expired := c.MaxAge < 0 || (c.MaxAge == 0 && c.Value == "")
		// Better Auth rewrites the cookie cache on every database read of the session; a
		// refreshed cache is not part of the answer compared, an expired one is.
		if strings.Contains(c.Name, "better-auth.") && (expired || !strings.HasSuffix(c.Name, ".session_data")) {
			o.Cookies[c.Name] = map[bool]string{true: "expired", false: "set"}[expired]
		}
	}
	for v, path := range st.Save {
		// "url?state" saves the query parameter state of the URL at url.
		path, param, inQuery := strings.Cut(path, "?")
		x, ok := lookup(o.Body, path)
		if ok && inQuery {
			u, err := url.Parse(fmt.Sprint(x))
			x, ok = "", err == nil && u.Query().Has(param)
			if ok {
				x = u.Query().Get(param)
			}
		}
		if !ok {
			t.Fatalf("%s on %s: no %s in %s", st.Name, s.Name, path, raw)
		}
		s.vars[v] = fmt.Sprint(x)
	}
	o.Body = n.normalize(s, o.Body, "")
	if loc := res.Header.Get("Location"); loc != "" {
		if n.opt.Rewrite != nil {
			loc = n.opt.Rewrite("Location", loc)
		}
		o.Location = n.text(s, loc)
	}
	return o
}

func lookup(v any, path string) (any, bool) {
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, v != nil
}

// Keys whose values each server makes up: compared by where they first appeared. Times are
// compared as "a time".
var (
	volatile = map[string]bool{"id": true, "userId": true, "token": true, "accountId": true}
	timeKeys = map[string]bool{"createdAt": true, "updatedAt": true, "expiresAt": true}
)

type normaliser struct{ opt Options }

func (n normaliser) normalize(s *Target, v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // labels are given in a stable order
		out := map[string]any{}
		for _, k := range keys {
			if !n.opt.Ignore[k] {
				out[k] = n.normalize(s, x[k], k)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = n.normalize(s, x[i], key)
		}
		return out
	case string:
		if n.opt.Rewrite != nil {
			x = n.opt.Rewrite(key, x)
		}
		switch {
		case volatile[key] || n.opt.Volatile[key]:
			return s.label(x)
		case timeKeys[key] || n.opt.TimeKeys[key]:
			if _, err := time.Parse(time.RFC3339, x); err == nil {
				return "<time>"
			}
		case key == "ipAddress":
			return "<ip>"
		}
		return n.text(s, x)
	case float64:
		if key == "expires_in" { // seconds left, counted at slightly different instants
			return math.Round(x/10) * 10
		}
	}
	return v
}

// text replaces the server's base URL and every value already labelled (a token in a URL).
func (n normaliser) text(s *Target, x string) string {
	x = strings.ReplaceAll(x, s.Base, "<base>")
	for val, l := range s.labels {
		if len(val) >= 8 {
			x = strings.ReplaceAll(x, val, l)
			x = strings.ReplaceAll(x, url.QueryEscape(val), l)
		}
	}
	return x
}

func (s *Target) label(v string) string {
	if l, ok := s.labels[v]; ok {
		return l
	}
	l := fmt.Sprintf("<v%d>", len(s.labels)+1)
	s.labels[v] = l
	return l
}

// Diff describes how two answers differ ("" when they agree).
func Diff(a, b Observed, st Step) string {
	if st.SQL != "" || st.Mail != nil || st.OnlyOurs || st.Accept != "" {
		return ""
	}
	if a.Status != b.Status {
		return fmt.Sprintf("status %d vs %d", a.Status, b.Status)
	}
	if a.AuthToken != b.AuthToken {
		return fmt.Sprintf("set-auth-token sent: %v vs %v", a.AuthToken, b.AuthToken)
	}
	if a.Location != b.Location {
		return fmt.Sprintf("redirect %q vs %q", a.Location, b.Location)
	}
	if !reflect.DeepEqual(a.Cookies, b.Cookies) {
		return fmt.Sprintf("cookies %v vs %v", a.Cookies, b.Cookies)
	}
	if len(a.Raw) == 0 && a.Status == http.StatusUnauthorized {
		return "" // Better Auth's bare 401 has no body; ours is {"code": "UNAUTHORIZED", ...}
	}
	am, aok := a.Body.(map[string]any)
	bm, bok := b.Body.(map[string]any)
	if aok && bok && am["code"] == "VALIDATION_ERROR" && bm["code"] == "VALIDATION_ERROR" {
		// zod's wording is not ours word for word; the field it names is.
		if field(am["message"]) != field(bm["message"]) {
			return fmt.Sprintf("validation of %s vs %s", field(am["message"]), field(bm["message"]))
		}
		return ""
	}
	if !reflect.DeepEqual(a.Body, b.Body) {
		return "bodies differ: " + FirstDiff(a.Body, b.Body, "")
	}
	return ""
}

// field is the "[body.x]" a validation message opens with.
func field(msg any) string {
	s, _ := msg.(string)
	if i := strings.IndexByte(s, ']'); strings.HasPrefix(s, "[") && i > 0 {
		return s[:i+1]
	}
	return s
}

// FirstDiff names the first place (a JSON path below path) where two decoded JSON values differ,
// or answers "" when they are equal.
func FirstDiff(a, b any, path string) string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			av, ain := am[k]
			bv, bin := bm[k]
			if ain != bin {
				return fmt.Sprintf("%s.%s present %v vs %v", path, k, ain, bin)
			}
			if d := FirstDiff(av, bv, path+"."+k); d != "" {
				return d
			}
		}
		return ""
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok {
		if len(al) != len(bl) {
			return fmt.Sprintf("%s has %d vs %d items", path, len(al), len(bl))
		}
		for i := range al {
			if d := FirstDiff(al[i], bl[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s = %v vs %v", path, a, b)
	}
	return ""
}
