// Package server builds the top-level HTTP handler: the API mounts, security headers and the
// React app with its server-rendered HTML shell.
package server

import (
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Deps are the handlers the server mounts; nil ones are simply absent.
type Deps struct {
	Auth    http.Handler // Better Auth protocol, mounted at /api/auth/
	Trends  http.Handler // /api/trends/... and the other product APIs under /api/
	Outbox  http.Handler // development mail outbox at /dev/outbox (nil in production)
	Billing http.Handler // the workspace's plan, limits and usage at /api/billing/
	Health  http.Handler // GET /api/health: the database and the trends store (or its owner)
}

// New returns the whole application's handler.
func New(cfg *config.Config, d Deps) http.Handler {
	mux := http.NewServeMux()
	if d.Auth != nil {
		mux.Handle("/api/auth/", d.Auth)
	}
	if d.Billing != nil {
		mux.Handle("/api/billing/", d.Billing)
	}
	if d.Health != nil {
		mux.Handle("GET /api/health", d.Health)
	}
	if d.Trends != nil {
		mux.Handle("/api/", d.Trends)
	} else {
		mux.HandleFunc("/api/", httpx.NotFound)
	}
	if d.Outbox != nil {
		mux.Handle("/dev/outbox", d.Outbox)
		mux.Handle("/dev/outbox.json", d.Outbox)
	}
	mux.HandleFunc("/_serverFn/{id}", serverFn)
	mux.Handle("/", newSPA(cfg))
	return securityHeaders(mux)
}

// securityHeaders sets headers every response should carry.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			h.Set("X-Frame-Options", "SAMEORIGIN")
		}
		next.ServeHTTP(w, r)
	})
}
