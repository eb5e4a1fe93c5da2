// Package testkit holds test-only helpers: fresh databases, an in-process SMTP server and a
// running server with a cookie-jar client. Helpers take t and fail the test themselves.
package testkit

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/sellertrends/sellertrends/internal/store"
)

// PostgresURL is the test server; TEST_POSTGRES_URL overrides it.
func PostgresURL() string {
	if u := os.Getenv("TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return "postgres://root@127.0.0.1:5432/test?sslmode=disable"
}

var schemaSeq atomic.Int64

// EachDB runs fn as subtests named db=sqlite and db=postgres, each with a fresh migrated store.
func EachDB(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("db=sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("db=postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite returns a fresh store on a file under t.TempDir().
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Postgres returns a fresh store in its own schema, dropped when the test ends.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	url, schema := PostgresSchema(t)
	s, err := store.Open(context.Background(), url, "")
	if err != nil {
		t.Fatalf("open postgres schema %s: %v", schema, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// PostgresSchema creates an empty schema and returns a URL whose search_path points at it.
func PostgresSchema(t testing.TB) (url, schema string) {
	t.Helper()
	schema = fmt.Sprintf("t_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, schemaSeq.Add(1))
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, `create schema `+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema (is PostgreSQL running on 127.0.0.1:5432?): %v", err)
	}
	t.Cleanup(func() {
		admin.Exec(`drop schema ` + schema + ` cascade`)
		admin.Close()
	})
	sep := "?"
	if strings.Contains(PostgresURL(), "?") {
		sep = "&"
	}
	return PostgresURL() + sep + "search_path=" + schema, schema
}
