// Package device is Better Auth's device-authorization plugin (RFC 8628) on our auth core: a
// device (the sellertrends command line) asks for a code at /device/code, the user opens
// /device, signs in and approves or denies, and the device's polling of /device/token ends with
// a session token it sends as a bearer token. Paths, bodies, errors and the deviceCode table
// are the plugin's (better-auth 1.7), so deviceAuthorizationClient works unchanged.
package device

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/ratelimit"
)

//go:embed migrations
var migrations embed.FS

// Plugin is the device-authorization plugin.
type Plugin struct {
	ExpiresIn      time.Duration // how long a code lives (AUTH_DEVICE_CODE_EXPIRES_IN, 30m)
	Interval       time.Duration // the least time between two polls (AUTH_DEVICE_INTERVAL, 5s)
	CodeLength     int           // device code length (40)
	UserCodeLength int           // user code length (8)

	s       *auth.Service
	records records
}

// New configures the plugin from the configuration.
func New(cfg *config.Config) *Plugin {
	return &Plugin{ExpiresIn: cfg.DeviceCodeExpiresIn, Interval: cfg.DeviceInterval,
		CodeLength: cfg.DeviceCodeLength, UserCodeLength: cfg.DeviceUserCodeLength}
}

func (*Plugin) ID() string { return "device-authorization" }

// Register creates the deviceCode table and mounts the routes. GET /device is limited as
// Better Auth limits it: 5 requests per code lifetime and address (user codes are short).
func (p *Plugin) Register(s *auth.Service) error {
	p.s, p.records = s, records{st: s.Store()}
	if p.ExpiresIn <= 0 {
		p.ExpiresIn = 30 * time.Minute
	}
	if p.Interval <= 0 {
		p.Interval = 5 * time.Second
	}
	if p.CodeLength <= 0 {
		p.CodeLength = 40
	}
	if p.UserCodeLength <= 0 {
		p.UserCodeLength = 8
	}
	dirs, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	if err := s.Store().Migrate(context.Background(), "device_authorization", dirs); err != nil {
		return err
	}
	s.Handle("POST /device/code", p.code)
	s.Handle("POST /device/token", p.token)
	s.AllowMediaTypes("/device/code", httpx.JSONOrForm) // RFC 8628 clients post forms
	s.AllowMediaTypes("/device/token", httpx.JSONOrForm)
	s.Handle("GET /device", p.verify, ratelimit.Rule{Window: p.ExpiresIn, Max: 5})
	s.Handle("POST /device/approve", p.approve)
	s.Handle("POST /device/deny", p.deny)
	return nil
}

// userCodeAlphabet has no 0/O or 1/I, so a code read off a terminal is typed right.
const userCodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// newUserCode draws n letters of the alphabet from crypto/rand (32 letters: a byte mod 32 is
// uniform).
func newUserCode(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("device: crypto/rand failed: " + err.Error())
	}
	for i := range b {
		b[i] = userCodeAlphabet[b[i]%32]
	}
	return string(b)
}

// oauthError is an RFC 8628 / OAuth error answer: {"error", "error_description"}.
type oauthError struct {
	status      int
	Code        string `json:"error"`
	Description string `json:"error_description"`
}

func (e *oauthError) Error() string { return e.Code + ": " + e.Description }

func oerr(status int, code, description string) *oauthError {
	return &oauthError{status: status, Code: code, Description: description}
}

// writeJSON answers v; the code and token answers are never stored by caches (RFC 8628 §3.2).
func writeJSON(w http.ResponseWriter, status int, v any, noStore bool) {
	if noStore {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Pragma", "no-cache")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// fail answers an OAuth error as is, anything else through the core (logged 500s).
func fail(w http.ResponseWriter, r *http.Request, err error, noStore bool) {
	if e, ok := err.(*oauthError); ok {
		writeJSON(w, e.status, e, noStore)
		return
	}
	auth.WriteError(w, r, err)
}
