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

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/server"
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
	app.Handler = server.New(cfg, server.Deps{})
	return app, nil
}
