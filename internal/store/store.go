// Package store keeps accounts in SQLite (the embedded default) or PostgreSQL, in Better Auth's
// core schema so a database written by a Better Auth app is used as is. One file per table;
// dialect differences live in dialect.go.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	_ "github.com/mattn/go-sqlite3"    // registers "sqlite3"
	"github.com/pressly/goose/v3"
)

// ErrNotFound is returned when a looked-up row does not exist.
var ErrNotFound = errors.New("not found")

//go:embed migrations
var migrations embed.FS

// Store is the application database.
type Store struct {
	db       *sql.DB
	dialect  dialect
	sessions SessionCache // optional (REDIS_URL); see session_cache.go
	// memberSources are selects of (workspaceId, userId) beside workspaceMember: plugins whose
	// records make users members of workspaces (organizations) add theirs at start-up.
	memberSources []string
	// carriedSession and carriedUser are plugins' columns read with every session and its user
	// (carried.go).
	carriedSession, carriedUser []Carried
}

// Open connects to PostgreSQL when databaseURL is set, otherwise to SQLite at
// dataDir/sellertrends.db, and applies pending migrations.
func Open(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	if databaseURL != "" {
		return openWith(ctx, postgres, "pgx", databaseURL)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create data dir: %w", err)
	}
	return OpenSQLite(ctx, filepath.Join(dataDir, "sellertrends.db"))
}

// OpenSQLite opens (creating if needed) the SQLite database file at path.
func OpenSQLite(ctx context.Context, path string) (*Store, error) {
	// WAL lets readers proceed during writes; busy_timeout makes concurrent writers wait, not fail.
	// The driver's statement cache keeps each connection's last 64 statements prepared: preparing
	// the session-and-user query was 7% of get-session's database path.
	dsn := "file:" + path + "?_foreign_keys=on&_journal_mode=WAL&_busy_timeout=5000&_txlock=immediate&_stmt_cache_size=64"
	return openWith(ctx, sqlite, "sqlite3", dsn)
}

func openWith(ctx context.Context, d dialect, driver, dsn string) (*Store, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	if d == sqlite {
		// As many idle as open: database/sql keeps 2 idle by default, so under 8 concurrent
		// requests it closed and reopened connections all the time, each reopening running the
		// DSN's pragmas and losing its prepared statements.
		db.SetMaxOpenConns(8)
		db.SetMaxIdleConns(8)
	} else {
		db.SetMaxOpenConns(20)
		db.SetMaxIdleConns(20)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect: %w", err)
	}
	s := &Store{db: db, dialect: d}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrations, "migrations/"+s.dialect.dir())
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(s.dialect.goose(), s.db, sub)
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	return nil
}

// DB exposes the connection pool to packages that own their own tables (rate limits, workspaces).
func (s *Store) DB() *sql.DB { return s.db }

// Rebind rewrites ?-placeholders for the store's dialect.
func (s *Store) Rebind(q string) string { return s.dialect.rebind(q) }

// Time converts t to the value this dialect stores for a date column.
func (s *Store) Time(t timeValue) any { return s.dialect.timeArg(t) }

// Close closes the pool.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return s.db.ExecContext(ctx, s.dialect.rebind(q), args...)
}

func (s *Store) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return s.db.QueryRowContext(ctx, s.dialect.rebind(q), args...)
}

func (s *Store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return s.db.QueryContext(ctx, s.dialect.rebind(q), args...)
}

// Migrate applies a plugin's own migrations. fsys holds a "sqlite" and a "postgres" folder of
// goose files; their versions are kept apart from the core's, in goose_db_version_<name>.
// goMigrations are goose Go migrations numbered beside the files (AddColumns: columns a plugin
// adds to a core table, which SQLite cannot add "if not exists" in SQL).
func (s *Store) Migrate(ctx context.Context, name string, fsys fs.FS, goMigrations ...*goose.Migration) error {
	var sub fs.FS
	if fsys != nil {
		var err error
		if sub, err = fs.Sub(fsys, s.dialect.dir()); err != nil {
			return err
		}
	}
	p, err := goose.NewProvider(s.dialect.goose(), s.db, sub, goose.WithTableName("goose_db_version_"+name), goose.WithGoMigrations(goMigrations...))
	if err != nil {
		return fmt.Errorf("store: %s migrations: %w", name, err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate %s: %w", name, err)
	}
	return nil
}

// Postgres reports whether the store is PostgreSQL (plugins with dialect-specific SQL).
func (s *Store) Postgres() bool { return s.dialect == postgres }
