// Package warehouse stores search-term reports in an embedded DuckDB database and answers the
// trends questions: one file per question. Terms, ASINs, brands and categories are
// dictionary-encoded; shares are basis points in SMALLINTs; the measures every screen needs are
// computed once per import into term_stats, so requests read precomputed rows.
package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/duckdb/duckdb-go/v2"
)

// ErrNotFound is returned for an unknown dataset, term, product or brand.
var ErrNotFound = errors.New("not found")

// Warehouse is the trends store of one process.
type Warehouse struct {
	db *sql.DB
	// writeMu serialises imports and deletes: DuckDB allows one writer transaction at a time
	// and a second would only fail with a conflict.
	writeMu sync.Mutex
}

// Open opens (creating) dataDir/trends.duckdb with DuckDB's memory limit set.
func Open(ctx context.Context, dataDir, memoryLimit string) (*Warehouse, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	return OpenFile(ctx, filepath.Join(dataDir, "trends.duckdb"), memoryLimit)
}

// OpenFile opens the DuckDB file at path.
func OpenFile(ctx context.Context, path, memoryLimit string) (*Warehouse, error) {
	connector, err := duckdb.NewConnector(path, nil)
	if err != nil {
		return nil, fmt.Errorf("warehouse: open %s: %w (is another sellertrends process using it?)", path, err)
	}
	db := sql.OpenDB(connector)
	if memoryLimit != "" {
		if _, err := db.ExecContext(ctx, "SET memory_limit = '"+sanitizeSetting(memoryLimit)+"'"); err != nil {
			db.Close()
			return nil, fmt.Errorf("warehouse: memory limit %q: %w", memoryLimit, err)
		}
	}
	w := &Warehouse{db: db}
	if err := w.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return w, nil
}

// sanitizeSetting keeps a size like "768MB" from becoming SQL.
func sanitizeSetting(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r == '.' {
			out = append(out, r)
		}
	}
	return string(out)
}

// Close closes the database.
func (w *Warehouse) Close() error { return w.db.Close() }

// DB exposes the connection for benchmarks.
func (w *Warehouse) DB() *sql.DB { return w.db }
