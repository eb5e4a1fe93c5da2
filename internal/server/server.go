// Package server builds the top-level HTTP handler: the API mounts, security headers and the
// React app with its server-rendered HTML shell.
package server

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Deps are the handlers the server mounts; nil ones are simply absent.
type Deps struct {
	Auth    http.Handler // Better Auth protocol, mounted at /api/auth/
	Trends  http.Handler // /api/trends/... and the other product APIs under /api/
	Outbox  http.Handler // development mail outbox at /dev/outbox (nil in production)
	Billing http.Handler // the workspace's plan, limits and usage at /api/billing/
	Admin   http.Handler // the operator's figures at /api/admin/ (admins only)
	// TrustedOrigin wraps a handler with the auth routes' origin check for state-changing
	// requests (the theme server functions); nil leaves them unchecked.
	TrustedOrigin func(http.Handler) http.Handler
	Health        http.Handler // GET /api/health: the database and the trends store (or its owner)
}

// New returns the whole application's handler.
func New(cfg *config.Config, d Deps) http.Handler {
	mux := http.NewServeMux()
	if d.Auth != nil {
		mux.Handle("/api/auth/", d.Auth)
	}
	if d.Admin != nil {
		mux.Handle("/api/admin/", d.Admin)
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
	var fn http.Handler = http.HandlerFunc(serverFn)
	if d.TrustedOrigin != nil {
		fn = d.TrustedOrigin(fn)
	}
	mux.Handle("/_serverFn/{id}", fn)
	mux.Handle("/", newSPA(cfg))
	return securityHeaders(cfg, mux)
}
