package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/ratelimit"
	"github.com/sellertrends/sellertrends/internal/server"
	"github.com/sellertrends/sellertrends/internal/sessioncache"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends"
	"github.com/sellertrends/sellertrends/internal/trends/demo"
	"github.com/sellertrends/sellertrends/internal/trends/localimport"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// serve starts the HTTP server and stops it gracefully on SIGINT/SIGTERM.
func serve(cfg *config.Config, args []string, out io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	app, err := buildApp(ctx, cfg)
	if err != nil {
		return err
	}
	defer app.Close()

	addr := fmt.Sprintf("%s:%d", listenHost(cfg), cfg.Port)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: app.Handler, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "sellertrends listening on http://%s (%s)\n", ln.Addr(), cfg.AppEnv)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		slog.Error("shutdown", "error", err)
	}
	return nil
}

// listenHost keeps development servers on loopback; production listens everywhere.
func listenHost(cfg *config.Config) string {
	if cfg.Production() {
		return ""
	}
	return "127.0.0.1"
}

// App is everything a running server holds, built once by buildApp.
type App struct {
	Handler http.Handler
	closers []func() error
}

// Close releases databases and background workers in reverse order of opening.
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i](); err != nil {
			slog.Error("close", "error", err)
		}
	}
}

// buildApp opens storage and wires the HTTP handlers. Tests call it too (through testkit).
func buildApp(ctx context.Context, cfg *config.Config) (*App, error) {
	app := &App{}
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	app.closers = append(app.closers, st.Close)
	secret, err := authSecret(cfg)
	if err != nil {
		return nil, err
	}
	deps := server.Deps{}
	sender, outbox, err := mailer(cfg)
	if err != nil {
		return nil, err
	}
	if outbox != nil {
		deps.Outbox = outbox
	}
	lim, err := limiter(cfg, st)
	if err != nil {
		return nil, err
	}
	if cfg.RedisURL != "" {
		cache, err := sessioncache.New(cfg.RedisURL, sessioncache.Prefix)
		if err != nil {
			return nil, err
		}
		st.WithSessionCache(cache)
		app.closers = append(app.closers, cache.Close)
	}
	authSvc := auth.New(cfg, st, sender, lim, secret)
	authSvc.OnUserCreated = func(ctx context.Context, u *store.User) error {
		return st.EnsurePersonalWorkspace(ctx, u.ID, u.Name, time.Now().UTC())
	}
	deps.Auth = authSvc.Handler()
	wh, err := warehouse.Open(ctx, cfg.DataDir, cfg.DuckDBMemory)
	if err != nil {
		return nil, err
	}
	wh.SetWriteMemory(cfg.DuckDBWriteMemory)
	app.closers = append(app.closers, wh.Close)
	// `sellertrends import` run beside this server hands its files over this socket.
	// Without it (a DATA_DIR path too long for a socket name, say) the server still runs and the
	// command says the store is in use.
	if sock, err := localimport.Listen(cfg.DataDir); err != nil {
		slog.Warn("no import socket: `sellertrends import` needs the server stopped", "error", err)
	} else {
		app.closers = append(app.closers, sock.Close)
		go localimport.Serve(sock, func(ctx context.Context, req localimport.Request, emit func(localimport.Event)) error {
			return importReports(ctx, wh, req, emit)
		})
	}
	trendsSvc := trends.New(cfg, st, wh, authSvc)
	app.closers = append(app.closers, trendsSvc.Close)
	deps.Trends = trendsSvc.Handler()
	app.Handler = server.New(cfg, deps)
	go buildDemoIfMissing(ctx, wh)
	return app, nil
}

// buildDemoIfMissing generates the demo workspace on first start, in the background so the
// server answers at once; the demo screens say "still building" until it lands.
func buildDemoIfMissing(ctx context.Context, wh *warehouse.Warehouse) {
	exists, err := demo.Exists(ctx, wh, trends.DemoWorkspace)
	if err != nil || exists {
		return
	}
	start := time.Now()
	if err := demo.Build(ctx, wh, trends.DemoWorkspace, demo.DefaultSize(time.Now()), nil); err != nil {
		slog.Error("demo build", "error", err)
		return
	}
	slog.Info("demo workspace built", "took", time.Since(start).Round(time.Millisecond))
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
// memory for a single process (AUTH_RATE_LIMIT_STORAGE).
func limiter(cfg *config.Config, st *store.Store) (ratelimit.Limiter, error) {
	if !cfg.AuthRateLimitEnabled {
		return ratelimit.Off{}, nil
	}
	return ratelimit.New(cfg.AuthRateLimitStorage, cfg.RedisURL, st.DB(), st.Rebind)
}
