// Package app wires storage, mail, rate limits, the session cache and the auth and trends
// services into the application's HTTP handler. The server (cli) and the tests (testkit) build
// the application here, so they run the same wiring.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/admin"
	"github.com/sellertrends/sellertrends/internal/auth/bearer"
	"github.com/sellertrends/sellertrends/internal/auth/device"
	"github.com/sellertrends/sellertrends/internal/auth/organization"
	"github.com/sellertrends/sellertrends/internal/auth/social"
	"github.com/sellertrends/sellertrends/internal/billing"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/operator"
	"github.com/sellertrends/sellertrends/internal/ratelimit"
	"github.com/sellertrends/sellertrends/internal/server"
	"github.com/sellertrends/sellertrends/internal/sessioncache"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends"
	"github.com/sellertrends/sellertrends/internal/trends/alerts"
	"github.com/sellertrends/sellertrends/internal/trends/forward"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// App is the application over an opened store.
type App struct {
	Handler   http.Handler
	Auth      *auth.Service
	Billing   *billing.Billing
	Warehouse *warehouse.Warehouse
	// Demo reports the demo workspace's first generation to the API (cli runs it).
	Demo   *trends.DemoProgress
	Alerts *alerts.Notifier     // alert digests; the server starts its weekly scheduler
	orgs   *organization.Plugin // organizations: the trends API's and billing's access check
	// Jobs runs every import (uploads, and `sellertrends import` through the server's socket).
	Jobs    *trends.Jobs
	closers []func() error

	adminPlugin *admin.Plugin // guards the operator's figures
}

// Options are what the caller decides beyond the configuration.
type Options struct {
	Secret string // signs cookies and tokens
	// RateLimitStorage, when set, replaces AUTH_RATE_LIMIT_STORAGE (tests that share a
	// database and a Redis keep their counts apart in memory).
	RateLimitStorage string
}

// Build wires the application over st. Close releases what it opened; st stays the caller's.
func Build(ctx context.Context, cfg *config.Config, st *store.Store, opts Options) (_ *App, err error) {
	a := &App{}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	deps := server.Deps{}
	sender, outbox, err := mailer(cfg)
	if err != nil {
		return nil, err
	}
	if outbox != nil { // a nil *Outbox in the interface would look like a handler
		deps.Outbox = outbox
	}
	// One Redis client serves the rate limits and the session cache.
	var rdb *redis.Client
	if cfg.RedisURL != "" {
		ropts, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		rdb = redis.NewClient(ropts)
		a.closers = append(a.closers, rdb.Close)
		st.WithSessionCache(sessioncache.New(rdb, sessioncache.Prefix))
	}
	lim, err := limiter(cfg, opts.RateLimitStorage, rdb, st)
	if err != nil {
		return nil, err
	}
	a.Auth = auth.New(cfg, st, sender, lim, opts.Secret)
	// Queued mails go out before the store and Redis close (closers run in reverse).
	a.closers = append(a.closers, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return a.Auth.Close(ctx)
	})
	a.Billing = billing.New(cfg.Billing)
	a.orgs = organization.New()
	a.adminPlugin = admin.New(cfg)
	if err := a.Auth.Use(plugins(cfg, a.adminPlugin, a.Billing, a.orgs)...); err != nil {
		return nil, err
	}
	// Organizations are shared workspaces: their seats are the plan's, billing asks their roles,
	// and deleting one deletes its workspace (its watchlist; with a local trends store also its
	// datasets and imports, set in openTrends).
	a.orgs.SetPlans(a.Billing.PlanOf)
	a.Billing.UseOrganizations(a.orgs)
	a.orgs.OnDeleted(func(ctx context.Context, id string) error { return st.DeleteWorkspace(ctx, id) })
	a.Auth.OnUserCreated(func(ctx context.Context, u *store.User) error {
		return st.EnsurePersonalWorkspace(ctx, u.ID, u.Name, time.Now().UTC())
	})
	deps.Auth = a.Auth.Handler()
	deps.TrustedOrigin = a.Auth.RequireTrustedOrigin
	if cfg.TrendsOwnerURL != "" {
		a.forwardTrends(cfg, st, opts.Secret, &deps)
	} else if err := a.openTrends(ctx, cfg, st, sender, opts.Secret, &deps); err != nil {
		return nil, err
	}
	a.Handler = server.New(cfg, deps)
	return a, nil
}

// openTrends opens the trends store under DATA_DIR and serves the trends API from it.
func (a *App) openTrends(ctx context.Context, cfg *config.Config, st *store.Store, sender mail.Sender, secret string, deps *server.Deps) (err error) {
	if a.Warehouse, err = warehouse.Open(ctx, cfg.DataDir, cfg.DuckDBMemory); err != nil {
		return err
	}
	a.Warehouse.SetWriteMemory(cfg.DuckDBWriteMemory)
	if cfg.DebugImportPauseAt != "" {
		a.Warehouse.OnStep(trends.PauseAt(cfg.DebugImportPauseAt))
	}
	a.Warehouse.WarmLists()
	a.closers = append(a.closers, a.Warehouse.Close)
	// History answers from the facts until a missing copy is rebuilt, so a failure here is
	// logged, not fatal.
	if err := a.Warehouse.ResumeCopies(ctx); err != nil {
		slog.Error("trends: checking the term-ordered copies", "err", err)
	}
	// The notifier closes after the import worker (closers run in reverse) and before the
	// warehouse, so no digest is started or still reading when the warehouse closes.
	a.Alerts = alerts.New(cfg.BaseURL, st, a.Warehouse, sender, secret)
	a.Alerts.SetPlans(a.Billing.PlanOf)
	a.closers = append(a.closers, a.Alerts.Close)
	trendsSvc := trends.New(cfg, st, a.Warehouse, a.Auth)
	trendsSvc.SetPlans(a.Billing.PlanOf)
	trendsSvc.UseOrganizations(a.orgs)
	a.orgs.OnDeleted(trendsSvc.DeleteWorkspaceData)
	trendsSvc.UseAlerts(a.Alerts)
	a.closers = append(a.closers, trendsSvc.Close)
	// Deleting an account deletes its workspaces, datasets, watchlists and settings first.
	a.Auth.OnUserDeleted(trendsSvc.DeleteUserData)
	a.Demo = trendsSvc.Demo
	a.Jobs = trendsSvc.Jobs()
	deps.Trends = withDeletions(trendsSvc.Handler(), []byte(secret), trendsSvc.DeleteUserData)
	deps.Billing = a.Auth.RequireSession(a.Billing.APIHandler(usage(st, a.Warehouse, a.orgs)))
	deps.Admin = a.adminPlugin.RequireAdmin(operator.Handler(st, a.Warehouse))
	deps.Health = health(st, func(context.Context) any { return map[string]string{"mode": "local"} })
	return nil
}

// forwardTrends passes the trends API (and the billing page's usage, which counts datasets) on
// to the server that owns the trends store: this one opens no DuckDB, runs no import worker
// and sends no alert digests.
func (a *App) forwardTrends(cfg *config.Config, st *store.Store, secret string, deps *server.Deps) {
	owner, _ := url.Parse(cfg.TrendsOwnerURL) // config checked it
	proxy := forward.New(owner, []byte(secret))
	a.Auth.OnUserDeleted(proxy.DeleteUserData)
	deps.Trends = proxy
	deps.Billing = proxy
	deps.Admin = proxy // the figures count the owner's datasets; it checks the admin again
	deps.Health = health(st, func(ctx context.Context) any { return proxy.Check(ctx) })
}

// withDeletions adds the owner's side of account deletions sent by forwarding servers.
func withDeletions(api http.Handler, secret []byte, del func(context.Context, string) error) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST "+forward.DeletePath, forward.DeleteHandler(secret, del))
	mux.Handle("/", api)
	return mux
}

// health answers /api/health: 200 when the shared database answers (a forwarding server stays
// healthy while its trends owner restarts; the body says whether the owner is reachable).
func health(st *store.Store, trendsState func(context.Context) any) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
		defer cancel()
		status, db := http.StatusOK, "ok"
		if err := st.DB().PingContext(ctx); err != nil {
			status, db = http.StatusServiceUnavailable, "unreachable"
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"database": db, "trends": trendsState(ctx)})
	})
}

// usage counts what a workspace uses of its plan, for the billing page.
func usage(st *store.Store, wh *warehouse.Warehouse, orgs *organization.Plugin) billing.UsageFunc {
	return func(ctx context.Context, ws string) (billing.Usage, error) {
		var u billing.Usage
		ds, err := wh.Datasets(ctx, ws)
		if err != nil {
			return u, err
		}
		items, err := st.Watchlist(ctx, ws)
		if err != nil {
			return u, err
		}
		// A personal workspace's seats are its members; an organization's also count its
		// pending invitations (they hold a seat until answered).
		members, err := st.MemberCount(ctx, ws)
		if err == nil && members == 0 {
			members, err = orgs.SeatsUsed(ctx, ws)
		}
		u.Datasets, u.WatchlistItems, u.Seats = len(ds), len(items), members
		return u, err
	}
}

// plugins are the Better Auth plugins the server runs, each a package beside internal/auth.
func plugins(cfg *config.Config, adm *admin.Plugin, b *billing.Billing, orgs *organization.Plugin) []auth.Plugin {
	return []auth.Plugin{bearer.Plugin{}, adm, device.New(cfg), social.Plugin{}, orgs, b}
}

// Close releases what Build opened, in reverse order.
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i](); err != nil {
			slog.Error("close", "error", err)
		}
	}
	a.closers = nil
}

// mailer sends over SMTP when SMTP_URL is set; otherwise (development only) into the outbox.
func mailer(cfg *config.Config) (mail.Sender, *mail.Outbox, error) {
	if cfg.SMTPURL != "" {
		s, err := mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
		return s, nil, err
	}
	if cfg.Production() {
		return nil, nil, errors.New("SMTP_URL is required in production: mails cannot be sent")
	}
	o := &mail.Outbox{}
	return o, o, nil
}

// limiter picks the rate-limit store: Redis or the database when several servers share limits,
// memory for a single process (AUTH_RATE_LIMIT_STORAGE, or storage when set).
func limiter(cfg *config.Config, storage string, rdb *redis.Client, st *store.Store) (ratelimit.Limiter, error) {
	if !cfg.AuthRateLimitEnabled {
		return ratelimit.Off{}, nil
	}
	if storage == "" {
		storage = cfg.AuthRateLimitStorage
	}
	return ratelimit.New(storage, rdb, st.DB(), st.Rebind)
}
