package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/app"
	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/billing"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// Secret signs the test servers' cookies and tokens.
const Secret = "test-secret-test-secret-test-secret-0123"

// App is a running server backed by a real store and a real SMTP server.
type App struct {
	URL       string
	Store     *store.Store
	Inbox     *Inbox
	Auth      *auth.Service
	Billing   *billing.Billing
	Config    *config.Config
	Warehouse *warehouse.Warehouse
	Handler   http.Handler // the whole application, for in-process benchmarks
	Demo      *trends.DemoProgress
}

// Server starts the real handler for st on 127.0.0.1 with mail going to a fresh SMTP server.
// env overrides configuration variables (e.g. AUTH_REQUIRE_EMAIL_VERIFICATION).
func Server(t testing.TB, st *store.Store, env map[string]string) *App {
	t.Helper()
	inbox := SMTP(t)
	ts := httptest.NewUnstartedServer(nil)
	base := "http://" + ts.Listener.Addr().String()
	vars := map[string]string{"BASE_URL": base, "SMTP_URL": inbox.URL, "MAIL_FROM": "sellertrends <test@localhost>", "DATA_DIR": t.TempDir(),
		"DUCKDB_MEMORY_LIMIT": "512MB", "DUCKDB_IMPORT_MEMORY_LIMIT": "512MB"}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	storage := "" // tests share a Redis and a database: keep counts per test unless asked
	if env["AUTH_RATE_LIMIT_STORAGE"] == "" {
		storage = "memory"
	}
	secret := Secret
	if cfg.AuthSecret != "" {
		secret = cfg.AuthSecret
	}
	built, err := app.Build(context.Background(), cfg, st, app.Options{Secret: secret, RateLimitStorage: storage})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(built.Close)
	ts.Config.Handler = built.Handler
	ts.Start()
	t.Cleanup(ts.Close)
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	return &App{URL: base, Store: st, Inbox: inbox, Auth: built.Auth, Billing: built.Billing, Config: cfg, Warehouse: built.Warehouse, Handler: built.Handler, Demo: built.Demo}
}

// Client is a browser-like client: a cookie jar, the app's Origin on every request, no redirects followed.
type Client struct {
	t    testing.TB
	app  *App
	HTTP *http.Client
}

// Client returns a fresh client with an empty cookie jar.
func (a *App) Client(t testing.TB) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{t: t, app: a, HTTP: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Response is a decoded answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a map (or fails the test).
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %s", r.Body)
	}
	return m
}

// Do sends a request; body may be nil, a string (sent raw) or a value (sent as JSON).
func (c *Client) Do(method, path string, body any, header ...string) Response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.app.URL+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", c.app.URL)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return Response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// Cookie returns the value of the named cookie the jar holds for the app, or "".
func (c *Client) Cookie(name string) string {
	u, _ := url.Parse(c.app.URL)
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// SignUp creates an account and returns its client, signed in.
func (a *App) SignUp(t testing.TB, email, password string) *Client {
	t.Helper()
	c := a.Client(t)
	res := c.Do("POST", "/api/auth/sign-up/email", map[string]any{"email": email, "password": password, "name": "Test User"})
	if res.Status != http.StatusOK {
		t.Fatalf("sign-up %s: %d %s", email, res.Status, res.Body)
	}
	return c
}
