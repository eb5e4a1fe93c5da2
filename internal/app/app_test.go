package app_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/app"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/trends/demo"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

func load(t *testing.T, vars map[string]string) *config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Without SMTP_URL, in development, mail goes to the outbox and its page is served.
func TestBuildServesTheOutboxWithoutSMTP(t *testing.T) {
	cfg := load(t, map[string]string{"DATA_DIR": t.TempDir(), "DUCKDB_MEMORY_LIMIT": "256MB", "DUCKDB_IMPORT_MEMORY_LIMIT": "256MB"})
	a, err := app.Build(context.Background(), cfg, testkit.SQLite(t), app.Options{Secret: testkit.Secret})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec := httptest.NewRecorder()
	a.Handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/dev/outbox.json", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("outbox: %d %s", rec.Code, rec.Body)
	}
}

// A store directory that cannot be created fails the build with the reason, and what was
// opened before it is closed (the Redis client), so nothing leaks or panics.
func TestBuildFailsCleanly(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := load(t, map[string]string{"DATA_DIR": filepath.Join(file, "data"), "REDIS_URL": "redis://127.0.0.1:6379/0",
		"AUTH_RATE_LIMIT_ENABLED": "true", "AUTH_RATE_LIMIT_STORAGE": "redis"})
	a, err := app.Build(context.Background(), cfg, testkit.SQLite(t), app.Options{Secret: testkit.Secret})
	if err == nil || a != nil {
		t.Fatalf("built over an impossible DATA_DIR: %v", err)
	}
}

// A store whose term-ordered copies are missing (the copy file lost, or a store from before
// the copies had their own file) gets them rebuilt in the background once the server starts.
func TestBuildRebuildsMissingCopies(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	wh, err := warehouse.Open(ctx, dir, "256MB")
	if err != nil {
		t.Fatal(err)
	}
	size := demo.Size{Terms: 300, Weeks: 12, Seed: 3, End: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)}
	if err := demo.BuildDirect(ctx, wh, "ws", size, nil); err != nil {
		t.Fatal(err)
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "trends-copy.duckdb")); err != nil {
		t.Fatal(err)
	}
	cfg := load(t, map[string]string{"DATA_DIR": dir, "DUCKDB_MEMORY_LIMIT": "256MB", "DUCKDB_IMPORT_MEMORY_LIMIT": "256MB"})
	a, err := app.Build(ctx, cfg, testkit.SQLite(t), app.Options{Secret: testkit.Secret})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.Warehouse.WaitBackground()
	var copied int
	if err := a.Warehouse.DB().QueryRowContext(ctx, `select count(*) from term_copy.compacted`).Scan(&copied); err != nil {
		t.Fatal(err)
	}
	if copied != size.Weeks {
		t.Fatalf("the copy holds %d periods after the start, want all %d", copied, size.Weeks)
	}
}
