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

	"github.com/sellertrends/sellertrends/internal/app"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/server"
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
	srv := server.HTTPServer(app.Handler, server.DefaultTimeouts)
	fmt.Fprintf(out, "sellertrends listening on http://%s (%s)\n", ln.Addr(), cfg.AppEnv)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// The running import is stopped first (an upload's job is resumed at the next start), so
	// the requests following it (long polls, the socket) end at once rather than hold the
	// shutdown.
	app.StopImports()
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
	jobs    *trends.Jobs
	closers []func() error
}

// StopImports stops the import job runner (Close does it too).
func (a *App) StopImports() {
	if a.jobs != nil {
		a.jobs.Close()
	}
}

// Close releases databases and background workers in reverse order of opening.
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i](); err != nil {
			slog.Error("close", "error", err)
		}
	}
	a.closers = nil
}

// buildApp opens the store, builds the application over it (app.Build, which the tests'
// servers share), and adds what only a real server runs: the import socket and the demo
// workspace's first build.
func buildApp(ctx context.Context, cfg *config.Config) (_ *App, err error) {
	a := &App{}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, st.Close)
	secret, err := authSecret(cfg)
	if err != nil {
		return nil, err
	}
	built, err := app.Build(ctx, cfg, st, app.Options{Secret: secret})
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, func() error { built.Close(); return nil })
	a.Handler, a.jobs = built.Handler, built.Jobs
	if built.Warehouse == nil { // forwarding to the trends owner (TRENDS_OWNER_URL): nothing more runs here
		return a, nil
	}
	// `sellertrends import` run beside this server hands its files over this socket.
	// Without it (a DATA_DIR path too long for a socket name, say) the server still runs and the
	// command says the store is in use.
	if sock, err := localimport.Listen(cfg.DataDir); err != nil {
		slog.Warn("no import socket: `sellertrends import` needs the server stopped", "error", err)
	} else {
		a.closers = append(a.closers, sock.Close)
		go localimport.Serve(sock, built.Jobs.ImportLocal)
	}
	buildDemoIfMissing(ctx, built.Warehouse, built.Demo)
	built.Alerts.StartWeekly(weeklyAlertsEvery)
	return a, nil
}

// weeklyAlertsEvery is how often the server looks for due weekly digests (alerts.StartWeekly).
const weeklyAlertsEvery = 10 * time.Minute

// buildDemoIfMissing generates the demo workspace on first start, in the background so the
// server answers at once. Whether it is missing is decided before the server listens, so the
// demo screens say "being generated" from the first request until it lands.
func buildDemoIfMissing(ctx context.Context, wh *warehouse.Warehouse, progress *trends.DemoProgress) {
	exists, err := demo.Exists(ctx, wh, trends.DemoWorkspace)
	if err != nil || exists {
		if err != nil {
			slog.Error("demo check", "error", err)
		}
		return
	}
	size := demo.DefaultSize(time.Now())
	progress.Start(size.Weeks)
	go func() {
		defer progress.Done()
		start := time.Now()
		if err := demo.Build(ctx, wh, trends.DemoWorkspace, size, progress.Week); err != nil {
			slog.Error("demo build", "error", err)
			return
		}
		slog.Info("demo workspace built", "took", time.Since(start).Round(time.Millisecond))
	}()
}
