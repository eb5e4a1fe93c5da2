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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/sellertrends/sellertrends/internal/trends/demandfile"
	"github.com/sellertrends/sellertrends/internal/trends/histfile"
)

// ErrNotFound is returned for an unknown dataset, term, product or brand.
var ErrNotFound = errors.New("not found")

// OutOfMemory says whether err is DuckDB running out of its memory limit: a heavy question
// (a past period's first list computes 3M terms' measures) at a moment when the limit is
// taken, not a broken request or store; asked again later, it may well pass.
func OutOfMemory(err error) bool {
	var e *duckdb.Error
	return errors.As(err, &e) && e.Type == duckdb.ErrorTypeOutOfMemory
}

// Warehouse is the trends store of one process.
type Warehouse struct {
	db *sql.DB
	// writeMu serialises imports and deletes: DuckDB allows one writer transaction at a time
	// and a second would only fail with a conflict.
	writeMu sync.Mutex
	// Memory limits: answering, and while a writer (import, delete, refresh, compaction) holds
	// writeMu; imports need more for the dictionaries and measures of a 3M-term period.
	memory, writeMemory string
	// purging says DuckDB's allocator returns freed memory in the background while answering
	// (purgeSetting); writers turn it off while they hold writeMu.
	purging bool
	// dir holds the store; imports write their staging files there.
	dir string
	// asinIndex is the ASIN index file's path (asin_index.go); asinIndexMu serialises its
	// writers; asinIndexBad says an import found it unusable.
	asinIndex    string
	asinIndexMu  sync.Mutex
	asinIndexBad atomic.Bool
	// codes: the index as product pages look codes up in it (asin_code.go).
	codes codeIndex
	// stepHook hears of each named import step (steps.go).
	stepHook func(step string)
	// names caches dictionary names for pages (term_history.go: dictionaryNames).
	names *lru.Cache[nameKey, [2]string]
	// products: which datasets' copies have their products table (term_products.go).
	products *productTables
	// hist: the history files and cached period records (history_file.go); writeGen counts
	// writer lock takings and releases (odd while a writer holds it).
	hist     historyFiles
	writeGen atomic.Uint64
	// histBuildMu serialises history file builds.
	histBuildMu sync.Mutex
	// tops: which datasets' copies have their term_tops tables (term_tops.go).
	tops *productTables
	// past: the last past period's measures (past.go).
	past pastCache
	// deleted holds the ids of datasets whose deletion has begun (delete_workspace.go).
	deleted sync.Map

	// Background work after imports (side_tables.go: seasonality, the term-ordered copy), one
	// job per dataset at a time, rerun when another import lands meanwhile; Close cancels and
	// waits. Imports and deletes cancel the run in progress (runs) and it starts over after
	// them, so a bulk load does not wait for it, unless the dataset's results have been
	// outstanding for maxBackgroundDelay (behind).
	bgCtx   context.Context
	bgStop  context.CancelFunc
	bg      sync.WaitGroup
	bgMu    sync.Mutex
	running map[int]bool
	dirty   map[int]bool
	runs    map[int]context.CancelFunc
	behind  map[int]time.Time
}

// nameCacheSize bounds the names cache: ~100k names of up to a few hundred bytes (~20 MB).
const nameCacheSize = 100_000

// Open opens (creating) dataDir/trends.duckdb, and beside it the copy file trends-copy.duckdb
// (compact.go), with DuckDB's memory limit set.
func Open(ctx context.Context, dataDir, memoryLimit string) (*Warehouse, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	return OpenFile(ctx, filepath.Join(dataDir, "trends.duckdb"), memoryLimit)
}

// OpenFile opens the DuckDB file at path and its copy file (copyPath).
func OpenFile(ctx context.Context, path, memoryLimit string) (*Warehouse, error) {
	connector, err := duckdb.NewConnector(path, nil)
	if err != nil {
		return nil, fmt.Errorf("warehouse: open %s: %w (is another sellertrends process using it?)", path, err)
	}
	// The file is ours now (DuckDB locks it): what a killed process spilled to DuckDB's temporary
	// directory (<store>.tmp, its default) is never read again, and can be gigabytes.
	if err := os.RemoveAll(path + ".tmp"); err != nil {
		connector.Close()
		return nil, fmt.Errorf("warehouse: removing the spill files a stopped process left: %w", err)
	}
	db := sql.OpenDB(connector)
	db.SetMaxIdleConns(maxPooledConns)
	if memoryLimit != "" {
		if _, err := db.ExecContext(ctx, "SET memory_limit = '"+sanitizeSetting(memoryLimit)+"'"); err != nil {
			db.Close()
			return nil, fmt.Errorf("warehouse: memory limit %q: %w", memoryLimit, err)
		}
	}
	if _, err := db.ExecContext(ctx, pageFilterSetting); err != nil {
		db.Close()
		return nil, fmt.Errorf("warehouse: %w", err)
	}
	_, purgeErr := db.ExecContext(ctx, purgeSetting(true)) // only memory is at stake: without it, answer as before
	if err := attachCopies(ctx, db, path); err != nil {
		db.Close()
		return nil, fmt.Errorf("warehouse: open %s: %w", copyPath(path), err)
	}
	names, _ := lru.New[nameKey, [2]string](nameCacheSize)
	w := &Warehouse{db: db, dir: filepath.Dir(path), asinIndex: asinIndexPath(path), running: map[int]bool{}, dirty: map[int]bool{}, runs: map[int]context.CancelFunc{}, behind: map[int]time.Time{}, memory: memoryLimit, writeMemory: memoryLimit, names: names, purging: purgeErr == nil}
	w.bgCtx, w.bgStop = context.WithCancel(context.Background())
	w.hist = historyFiles{files: map[int]*histfile.File{}, demand: map[int]*demandfile.File{}, absent: map[int]bool{}, periods: map[int]periodRecords{}}
	if err := w.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := w.dropStaleStaging(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if w.products, err = loadProductTables(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	if w.tops, err = loadTopTables(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return w, nil
}

// pageFilterSetting lets a join whose build side holds up to a page of rows (MaxPage) filter
// the scan on its other side by those exact values. A list's page is fetched from term_stats
// by row id (Explore); with DuckDB's default of 50, a page of 100 row ids reached the scan only
// as their smallest and largest and a Bloom filter, so it read every column of nearly every row
// in between — after a few hundred history lookups had pushed term_stats out of the buffer
// pool, 58–353 ms per page instead of 15–53 (3M terms, machine I). Explore substring p50/p95
// 81–90/140–186 ms → 35–45/54–65 ms (one process switching the setting between searches).
var pageFilterSetting = fmt.Sprintf("SET dynamic_or_filter_threshold = %d", MaxPage)

// WarmLists reads term_stats into DuckDB's buffers in the background; the server calls it after
// opening the store. Every list and search scans term_stats, and read cold the first searches
// after a start took up to 370-410 ms on the 3M set, ~60 ms warm (the warm-up takes 0.4 s; with
// it finished before the first search, the slowest of the first 40 took 127 ms).
func (w *Warehouse) WarmLists() {
	w.bg.Go(func() {
		var sum sql.NullInt64
		w.db.QueryRowContext(w.bgCtx, `select bit_xor(hash(s)) from term_stats s`).Scan(&sum)
	})
}

// SetWriteMemory sets DuckDB's memory limit while an import or another writer runs (default:
// the same as for answering).
func (w *Warehouse) SetWriteMemory(limit string) { w.writeMemory = limit }

// LockWriter is lockWriter for bulk loaders that write tables directly (demo.BuildDirect).
func (w *Warehouse) LockWriter(ctx context.Context) (unlock func()) { return w.lockWriter(ctx) }

// purgeSetting turns DuckDB's allocator background threads on or off. On, they return the
// memory DuckDB freed to the system as it goes: while answering on the 3M x 156 set (512 MB
// limit), the peak RSS of the bench's questions was 764–809 MiB in eight runs against 789–932
// MiB without them (machine T8), the spikes coming during a past period's first question. Off
// while a writer holds the lock, so imports run as they were measured. The allocator is the
// process's, not the store's: with several stores open in one process (tests), the last one
// to set it decides; only memory is at stake.
func purgeSetting(on bool) string {
	if on {
		return "SET allocator_background_threads = true"
	}
	return "SET allocator_background_threads = false"
}

// lockWriter takes the writer lock, raises the memory limit for the writer and turns the
// allocator's background threads off (purgeSetting); the returned function undoes all three.
func (w *Warehouse) lockWriter(ctx context.Context) func() {
	w.writeMu.Lock()
	w.writeGen.Add(1)
	raised := w.writeMemory != "" && w.writeMemory != w.memory
	if raised {
		if _, err := w.db.ExecContext(ctx, "SET memory_limit = '"+sanitizeSetting(w.writeMemory)+"'"); err != nil {
			raised = false
		}
	}
	if w.purging {
		w.db.ExecContext(ctx, purgeSetting(false))
	}
	return func() {
		if w.purging {
			w.db.ExecContext(context.Background(), purgeSetting(true))
		}
		if raised && w.memory != "" {
			w.db.ExecContext(context.Background(), "SET memory_limit = '"+sanitizeSetting(w.memory)+"'")
		}
		w.writeGen.Add(1)
		w.writeMu.Unlock()
	}
}

// dropStaleStaging removes what a killed import left behind. Its staging table was temporary
// and died with the process, but its staging files stay next to the store (Parquet, or CSV
// from earlier versions and the title spill where it cannot be unlinked at once), as does an ASIN
// index being written (its temporary file); stores written by
// earlier versions may also hold regular "stage_" tables. Only this process has the file open,
// so no import is running.
func (w *Warehouse) dropStaleStaging(ctx context.Context) error {
	var files []string
	patterns := []string{filepath.Join(w.dir, "stage_*.csv"), filepath.Join(w.dir, "stage_*.parquet"), w.asinIndex + ".*.tmp"}
	for _, pattern := range patterns {
		matched, err := filepath.Glob(pattern)
		if err != nil {
			return err
		}
		files = append(files, matched...)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	removeStaleHistoryTemps(w.asinIndex)
	return dropMatchingTables(ctx, w.db, `not temporary and table_name like 'stage\_%' escape '\'`)
}

// dropMatchingTables drops the store's tables that match cond, a condition on duckdb_tables()
// written by us.
func dropMatchingTables(ctx context.Context, db *sql.DB, cond string) error {
	tables, err := queryColumn[string](ctx, db, `select table_name from duckdb_tables() where database_name = current_database() and `+cond)
	if err != nil {
		return err
	}
	for _, name := range tables {
		// The name matched one of our own patterns; quote it anyway.
		if _, err := db.ExecContext(ctx, `drop table if exists "`+strings.ReplaceAll(name, `"`, `""`)+`"`); err != nil {
			return err
		}
	}
	return nil
}

// querier is a *sql.DB, *sql.Conn or *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// queryColumn runs a query of one column and returns its values.
func queryColumn[T any](ctx context.Context, db querier, q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
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

// WaitBackground waits until the background work after imports (seasonality, the copy) is done.
func (w *Warehouse) WaitBackground() { w.bg.Wait() }

// Close stops background work and closes the database.
func (w *Warehouse) Close() error {
	// Under bgMu, so an import finishing now either starts its job before the Wait or sees the
	// stop and starts none (a WaitGroup must not grow from zero while it is waited on).
	w.bgMu.Lock()
	w.bgStop()
	w.bgMu.Unlock()
	w.bg.Wait()
	w.past.release()
	w.flushConnections()
	w.hist.closeAll()
	w.codes.mu.Lock()
	w.codes.close()
	w.codes.mu.Unlock()
	return w.db.Close()
}

// maxPooledConns is how many idle connections the pool keeps. The pool must not close a
// connection that may carry a cancelled statement's state (flushConnections), so it keeps more
// than the requests and writers that run at once on these machines.
const maxPooledConns = 32

// flushConnections runs a statement on every pooled connection. duckdb-go (v2.10505) can leave
// the state of a statement cancelled as it started on its connection, and DuckDB then keeps the
// database open after Close until that connection runs another statement: opening the same
// file again in this process (the server after `demo`, `import` after the server) would spin
// forever inside DuckDB's instance cache. Nothing else uses the pool once background work has
// stopped, so the connections taken here are all of the pooled ones.
func (w *Warehouse) flushConnections() {
	ctx := context.Background()
	var conns []*sql.Conn
	for range w.db.Stats().Idle {
		c, err := w.db.Conn(ctx)
		if err != nil {
			break
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.ExecContext(ctx, "select 1")
		c.Close()
	}
}

// DB exposes the connection for benchmarks.
func (w *Warehouse) DB() *sql.DB { return w.db }

type txBeginner interface {
	BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
}

// beginTx begins a transaction that only the caller's Commit or Rollback ends. database/sql
// rolls back a transaction whose context ends on a goroutine of its own, which can run after
// Close: DuckDB then still has a live connection, and opening the same file again in this
// process spins forever inside DuckDB's instance cache. Statements still take the caller's
// context, so a cancel interrupts them, and the deferred Rollback ends the transaction.
func beginTx(ctx context.Context, b txBeginner) (*sql.Tx, error) {
	return b.BeginTx(context.WithoutCancel(ctx), nil)
}
