// Package auth speaks Better Auth's HTTP protocol at /api/auth: email-and-password sign-up and
// sign-in, sessions in signed cookies, email verification and password reset. Bodies, cookies,
// status codes, error codes and messages follow Better Auth 1.7 so its official client works
// unchanged and a database written by a Better Auth app is adopted as is.
package auth

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/ratelimit"
	"github.com/sellertrends/sellertrends/internal/store"
)

// BasePath is where the protocol is mounted (spec §9).
const BasePath = "/api/auth"

// Service holds what every endpoint needs.
type Service struct {
	cfg     *config.Config
	store   *store.Store
	mail    mail.Sender
	limiter ratelimit.Limiter
	secret  []byte
	cookies cookieNames
	now     func() time.Time
	memo    cacheMemo
	bg      background // mail and account lookups off the request path

	// Registered by the core's own endpoints and by plugins (core.go).
	plugins          []string
	table            []route
	wrappers         []func(http.Handler) http.Handler
	tokenSources     []TokenSource
	originExempt     map[string]bool
	mediaTypes       map[string][]string
	userFields       []FieldsFunc
	sessionFields    []FieldsFunc
	userCreatedHooks []func(context.Context, *store.User) error
	userUpdatedHooks []func(context.Context, *store.User) error
	userDeletedHooks []func(context.Context, string) error
	beforeSession    []func(context.Context, *store.User) error
	hiddenSessions   []func(SessionJSON) bool
	accountInfoHook  AccountInfoFunc
}

// New builds the service. secret is AUTH_SECRET (or the development secret under DATA_DIR).
func New(cfg *config.Config, st *store.Store, sender mail.Sender, limiter ratelimit.Limiter, secret string) *Service {
	if limiter == nil {
		limiter = ratelimit.Off{}
	}
	s := &Service{
		cfg: cfg, store: st, mail: sender, limiter: limiter, secret: []byte(secret),
		cookies: newCookieNames(cfg.BaseURL.Scheme == "https"),
		now:     func() time.Time { return time.Now().UTC() },
	}
	s.coreRoutes()
	return s
}

// SetClock replaces the clock (tests of expiry and refresh).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Handler returns the /api/auth handler: plugin wrappers and origin checks, then the route
// table (the core's endpoints and every plugin's, each behind its rate limit).
func (s *Service) Handler() http.Handler {
	h := s.originCheck(s.mux())
	for _, mw := range s.wrappers {
		h = mw(h)
	}
	return h
}

// userCreated runs the user-created hooks.
func (s *Service) userCreated(ctx context.Context, u *store.User) {
	for _, h := range s.userCreatedHooks {
		if err := h(ctx, u); err != nil {
			slog.Error("auth: user-created hook", "user", u.ID, "error", err)
		}
	}
}
