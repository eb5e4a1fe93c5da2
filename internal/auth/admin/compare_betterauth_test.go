package admin_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// The same request sequences (admin and device-authorization plugins, with the bearer plugin)
// go to a Better Auth 1.7 server built from the npm package (testdata/betterauth.mjs, on its own
// PostgreSQL schema) and to ours; every answer is compared field by field: status, body keys and
// values (ids, tokens and codes by the order they first appear, times as times), and whether
// set-auth-token is sent. Differences we chose are listed in `accepted` and in the README.
func TestSameAnswersAsBetterAuth(t *testing.T) {
	modules, _ := filepath.Abs("../../../web/node_modules")
	for _, pkg := range []string{"better-auth", "pg"} {
		if _, err := os.Stat(filepath.Join(modules, pkg)); err != nil {
			t.Fatalf("%s is not installed in web/node_modules (run `cd web && npm ci`): %v", pkg, err)
		}
	}
	ba := startBetterAuth(t, modules)
	st := testkit.Postgres(t)
	ours := testkit.Server(t, st, map[string]string{"AUTH_DEVICE_INTERVAL": "1s"})
	servers := []*target{ba, {name: "sellertrends", base: ours.URL, db: st.DB()}}
	for _, s := range servers {
		s.clients = map[string]*http.Client{}
		s.vars = map[string]string{}
		s.labels = map[string]string{}
	}
	for _, step := range compareSteps() {
		if step.pause > 0 {
			time.Sleep(step.pause) // the device protocol's polling interval, on both servers' real clocks
		}
		var got []observed
		for _, s := range servers {
			got = append(got, s.do(t, step))
		}
		if diff := compareObserved(got[0], got[1], step); diff != "" {
			t.Errorf("%s: %s\n  better-auth:  %d %s\n  sellertrends: %d %s", step.name, diff, got[0].status, got[0].raw, got[1].status, got[1].raw)
		}
	}
}

// target is one server under comparison.
type target struct {
	name, base string
	db         *sql.DB
	clients    map[string]*http.Client
	vars       map[string]string // values later steps use (ids, tokens, codes)
	labels     map[string]string // volatile value -> its label ("v3")
}

// step is one request of the sequence, sent by a named client (each has its own cookies;
// "device" never has any). path and body may use {var} placeholders.
type step struct {
	name, client, method, path string
	body                       any
	header                     []string
	save                       map[string]string // var <- JSON path ("user.id", "sessions.0.token")
	sql                        string            // instead of a request: SQL run on the server's database ({var}s bound as ?)
	pause                      time.Duration
	accept                     string // why an expected difference is accepted ("" none)
}

type observed struct {
	status    int
	raw       []byte
	body      any
	authToken bool
}

func (s *target) client(name string) *http.Client {
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

func (s *target) expand(v string) string {
	for k, val := range s.vars {
		v = strings.ReplaceAll(v, "{"+k+"}", val)
	}
	return v
}

func (s *target) do(t *testing.T, st step) observed {
	t.Helper()
	if st.sql != "" {
		if _, err := s.db.Exec(s.expand(st.sql)); err != nil {
			t.Fatalf("%s on %s: %v", st.name, s.name, err)
		}
		return observed{}
	}
	var rd io.Reader
	if st.body != nil {
		raw, _ := json.Marshal(st.body)
		rd = strings.NewReader(s.expand(string(raw)))
	}
	req, _ := http.NewRequest(st.method, s.base+s.expand(st.path), rd)
	req.Header.Set("Content-Type", "application/json")
	if st.client != "device" {
		req.Header.Set("Origin", s.base)
	}
	for i := 0; i+1 < len(st.header); i += 2 {
		req.Header.Set(st.header[i], s.expand(st.header[i+1]))
	}
	res, err := s.client(st.client).Do(req)
	if err != nil {
		t.Fatalf("%s on %s: %v", st.name, s.name, err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	o := observed{status: res.StatusCode, raw: bytes.TrimSpace(raw), authToken: res.Header.Get("set-auth-token") != ""}
	if len(o.raw) > 0 {
		_ = json.Unmarshal(o.raw, &o.body)
	}
	for v, path := range st.save {
		if x, ok := lookup(o.body, path); ok {
			s.vars[v] = fmt.Sprint(x)
		} else {
			t.Fatalf("%s on %s: no %s in %s", st.name, s.name, path, raw)
		}
	}
	o.body = s.normalize(o.body, "")
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

// volatile keys hold values each server makes up; they are compared by where they first
// appeared. Times are compared as "a time".
var (
	volatile = map[string]bool{"id": true, "userId": true, "token": true, "impersonatedBy": true, "device_code": true,
		"user_code": true, "access_token": true}
	timeKeys = map[string]bool{"createdAt": true, "updatedAt": true, "expiresAt": true, "banExpires": true}
	// otherPlugins are the session fields of plugins our server runs and this reference server
	// does not (organization): they are compared by the organization plugin's own tests.
	otherPlugins = map[string]bool{"activeOrganizationId": true, "activeTeamId": true}
)

func (s *target) normalize(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // labels are given in a stable order
		out := map[string]any{}
		for _, k := range keys {
			if otherPlugins[k] {
				continue
			}
			out[k] = s.normalize(x[k], k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = s.normalize(x[i], key)
		}
		return out
	case string:
		switch {
		case volatile[key]:
			return s.label(x)
		case timeKeys[key]:
			if _, err := time.Parse(time.RFC3339, x); err == nil {
				return "<time>"
			}
		case key == "ipAddress":
			return "<ip>"
		}
		x = strings.ReplaceAll(x, s.base, "<base>")
		for val, l := range s.labels { // a code inside a URL
			if len(val) >= 8 {
				x = strings.ReplaceAll(x, val, l)
			}
		}
		return x
	case float64:
		if key == "expires_in" { // seconds left, counted at slightly different instants
			return math.Round(x/10) * 10
		}
	}
	return v
}

func (s *target) label(v string) string {
	if l, ok := s.labels[v]; ok {
		return l
	}
	l := fmt.Sprintf("<v%d>", len(s.labels)+1)
	s.labels[v] = l
	return l
}

// compareObserved describes how two answers differ ("" when they agree).
func compareObserved(a, b observed, st step) string {
	if st.sql != "" {
		return ""
	}
	if a.status != b.status {
		return fmt.Sprintf("status %d vs %d", a.status, b.status)
	}
	if a.authToken != b.authToken {
		return fmt.Sprintf("set-auth-token sent: %v vs %v", a.authToken, b.authToken)
	}
	if st.accept != "" {
		return ""
	}
	if len(a.raw) == 0 && a.status == http.StatusUnauthorized {
		return "" // Better Auth's bare 401 has no body; ours is {"code": "UNAUTHORIZED", ...}
	}
	am, aok := a.body.(map[string]any)
	bm, bok := b.body.(map[string]any)
	if aok && bok && am["code"] == "VALIDATION_ERROR" && bm["code"] == "VALIDATION_ERROR" {
		return "" // zod's wording of a validation failure is not ours word for word
	}
	if !reflect.DeepEqual(a.body, b.body) {
		return "bodies differ: " + firstDiff(a.body, b.body, "")
	}
	return ""
}

func firstDiff(a, b any, path string) string {
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
			if d := firstDiff(av, bv, path+"."+k); d != "" {
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
			if d := firstDiff(al[i], bl[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
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

// startBetterAuth runs testdata/betterauth.mjs on a fresh PostgreSQL schema.
func startBetterAuth(t *testing.T, modules string) *target {
	t.Helper()
	url, schema := testkit.PostgresSchema(t)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	script, _ := filepath.Abs("testdata/betterauth.mjs")
	copied := copyInto(t, script, filepath.Dir(modules))
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", copied, strconv.Itoa(port), testkit.PostgresURL(), schema)
	cmd.Env = append(os.Environ(), "DEVICE_INTERVAL=1s")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "listening" {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("Better Auth server ended: %s", stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("Better Auth server did not start: %s", stderr.String())
	}
	return &target{name: "better-auth", base: fmt.Sprintf("http://127.0.0.1:%d", port), db: db}
}

func copyInto(t *testing.T, from, dir string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, ".compare-*.mjs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	f.Write(b)
	f.Close()
	return f.Name()
}
