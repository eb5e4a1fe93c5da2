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

	// OnUserCreated runs after sign-up created a user (cli wires the personal workspace here).
	// An error is logged; the account exists either way.
	OnUserCreated func(ctx context.Context, u *store.User) error
}

// New builds the service. secret is AUTH_SECRET (or the development secret under DATA_DIR).
func New(cfg *config.Config, st *store.Store, sender mail.Sender, limiter ratelimit.Limiter, secret string) *Service {
	if limiter == nil {
		limiter = ratelimit.Off{}
	}
	return &Service{
		cfg: cfg, store: st, mail: sender, limiter: limiter, secret: []byte(secret),
		cookies: newCookieNames(cfg.BaseURL.Scheme == "https"),
		now:     func() time.Time { return time.Now().UTC() },
	}
}

// SetClock replaces the clock (tests of expiry and refresh).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Handler returns the /api/auth handler: origin checks and rate limits, then the route table.
func (s *Service) Handler() http.Handler {
	return s.rateLimit(s.originCheck(s.routes()))
}

// userCreated runs the OnUserCreated hook.
func (s *Service) userCreated(ctx context.Context, u *store.User) {
	if s.OnUserCreated == nil {
		return
	}
	if err := s.OnUserCreated(ctx, u); err != nil {
		slog.Error("auth: user-created hook", "user", u.ID, "error", err)
	}
}
