package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// Past periods' measures (at=): term_stats holds the measures of the latest period only, so a
// list asked at an earlier period has its measures computed on request, by the statement the
// imports use (measuresSQL), into a temporary table shaped like term_stats, on a connection
// and in a read transaction of its own (temporary tables live on their connection; the store
// is not written). The list is then read from that table as from term_stats. Seasonality
// needs two years of facts per term (the background job's 20–40 s at full size), so past
// periods answer it as unknown; every other measure is as it stood then.

// ErrNoPeriod says no loaded period of the dataset contains the day asked for.
var ErrNoPeriod = errors.New("no loaded period contains that day")

// reader is what a list reads with: the store, or a transaction holding a past period's table.
type reader interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// CheckPeriod says whether a period of the dataset contains day at (ErrNoPeriod if none).
func (w *Warehouse) CheckPeriod(ctx context.Context, d *Dataset, at time.Time) error {
	_, _, err := w.resolveAt(ctx, w.db, d, at)
	return err
}

// resolveAt returns the index of the dataset's period containing day at, and whether it is
// a past one (not the latest); a zero at is the latest.
func (w *Warehouse) resolveAt(ctx context.Context, db reader, d *Dataset, at time.Time) (idx int, past bool, err error) {
	var latest sql.NullInt64
	var loaded bool
	idx = -1
	if !at.IsZero() {
		idx = periodIndex(report.Period{Kind: d.Kind, Start: at})
	}
	err = db.QueryRowContext(ctx, `select max(period_idx), coalesce(bool_or(period_idx = ?), false) from period where dataset_id = ?`, idx, d.ID).Scan(&latest, &loaded)
	switch {
	case err != nil:
		return 0, false, err
	case at.IsZero():
		return int(latest.Int64), false, nil
	case !loaded:
		return 0, false, ErrNoPeriod
	}
	return idx, idx != int(latest.Int64), nil
}

// withPastMeasures calls fn with a transaction holding the measures of every term of period
// idx in a temporary table, and the table's name. The last period computed stays cached
// (pastCache) while the dataset's periods stay as they were: computing one costs 17.7–19.2 s
// at 3M terms x 156 weeks, and a seller paging, sorting or filtering a list at that week
// asks for it again with every click.
func (w *Warehouse) withPastMeasures(ctx context.Context, d *Dataset, idx int, fn func(tx *sql.Tx, table string) error) error {
	c := &w.past
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		conn, err := w.db.Conn(ctx)
		if err != nil {
			return err
		}
		c.conn = conn
	}
	c.touch()
	tx, err := beginTx(ctx, c.conn)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	fingerprint, err := periodsFingerprint(ctx, tx, d.ID)
	if err != nil {
		return err
	}
	key := pastKey{dataset: d.ID, period: idx, fingerprint: fingerprint}
	if c.table != "" && c.key == key {
		return fn(tx, c.table)
	}
	// Computed in this transaction and kept only if it commits: on any error the rollback
	// brings the previous table (and c's record of it) back as they were.
	if c.table != "" {
		if _, err := tx.ExecContext(ctx, `drop table `+c.table); err != nil {
			return err
		}
	}
	table, err := computePastMeasures(ctx, tx, d.ID, idx)
	if err != nil {
		return err
	}
	if err := fn(tx, table); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	c.table, c.key = table, key
	return nil
}

// withFreshPastMeasures is withPastMeasures without the cache, on a connection of its own: an
// export streams its rows at the pace of the seller's download, and holding the cache that long
// would stall every other question at a past period.
func (w *Warehouse) withFreshPastMeasures(ctx context.Context, d *Dataset, idx int, fn func(tx *sql.Tx, table string) error) error {
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := beginTx(ctx, conn)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	table, err := computePastMeasures(ctx, tx, d.ID, idx)
	if err != nil {
		return err
	}
	return fn(tx, table)
}

// computePastMeasures computes the measures of period idx into a new temporary table in tx
// and returns its name.
func computePastMeasures(ctx context.Context, tx *sql.Tx, ds, idx int) (string, error) {
	table := "past_" + randomHex(6) + "_stats"
	started := time.Now()
	if err := pastMeasures(ctx, tx, ds, idx, table, table+"_codes"); err != nil {
		return "", fmt.Errorf("measures at a past period: %w", err)
	}
	pastComputed.Add(1)
	slog.Debug("past measures", "dataset", ds, "period", idx, "took", time.Since(started))
	return table, nil
}

// pastCache is the last past period's measures: a temporary table on a connection of its own
// (temporary tables live on their connection), for the dataset, period and state of the
// dataset's periods (periodsFingerprint) they were computed for; any import, replacement or
// deletion since changes the fingerprint, and the next request computes them again. Requests
// for past periods take turns. After pastCacheIdle without one, the table and its connection
// are let go, so DuckDB's memory and spill space are not held for a list nobody reads.
type pastCache struct {
	mu    sync.Mutex
	conn  *sql.Conn
	table string
	key   pastKey
	idle  *time.Timer
}

type pastKey struct {
	dataset, period int
	fingerprint     string
}

// pastCacheIdle is how long the cached table outlives its last request.
const pastCacheIdle = 10 * time.Minute

// pastComputed counts past periods' measures computed (tests read it).
var pastComputed atomic.Int64

// touch (under mu) restarts the idle timer.
func (c *pastCache) touch() {
	if c.idle == nil {
		c.idle = time.AfterFunc(pastCacheIdle, c.release)
		return
	}
	c.idle.Reset(pastCacheIdle)
}

// release drops the cached table and closes its connection.
func (c *pastCache) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.releaseLocked()
}

func (c *pastCache) releaseLocked() {
	if c.idle != nil {
		c.idle.Stop()
		c.idle = nil
	}
	if c.conn == nil {
		return
	}
	// A statement runs on the connection whatever it holds: one cancelled as it started would
	// otherwise keep the store open after Close (flushConnections).
	q := `select 1`
	if c.table != "" {
		q = `drop table if exists ` + c.table
	}
	if _, err := c.conn.ExecContext(context.Background(), q); err != nil {
		slog.Error("past measures: releasing the cached table", "err", err)
	}
	c.conn.Close()
	c.conn, c.table, c.key = nil, "", pastKey{}
}

// pastChunk is how many term ids one statement of pastMeasures covers: half of an import's
// statsChunk, since a past period's measures are computed at the answering memory limit
// (DUCKDB_MEMORY_LIMIT), not the import's. On the 3M x 156 set (machine T14, alternating in one
// process) ranges of 1M terms ran out of memory at 256 MB where 500k finished; at 384 MB they
// spilled ~1.1 GB against ~0.4 GB and took 10.5-10.8 s against 7.0-7.2; at 512 MB, 7.1-9.3 s
// (median 8.3) against 6.1-7.8 (median 6.6). At 512 MB, 1M ranges had run out of memory once
// in 14 benchmark runs on machine T13. Ranges of 250k were no faster (7.0-7.9 s).
var pastChunk int64 = 500_000 // tests make it small

// pastMeasures fills table (created here, temporary) with the measures of period idx.
func pastMeasures(ctx context.Context, tx *sql.Tx, ds, idx int, table, codes string) error {
	var maxID sql.NullInt64
	var before, after int
	err := tx.QueryRowContext(ctx, `select (select max(term_id) from fact where dataset_id = ? and period_idx = ?),
		count(*) filter (where period_idx <= ?), count(*) filter (where period_idx > ?) from period where dataset_id = ?`, ds, idx, idx, idx, ds).
		Scan(&maxID, &before, &after)
	if err != nil {
		return err
	}
	err = execAll(ctx, tx, `create temp table `+table+` as select * from term_stats limit 0`,
		fmt.Sprintf(`create temp table %s_old as select term_id, spark, rank_13 from term_stats limit 0`, table))
	if err != nil {
		return err
	}
	if !maxID.Valid { // the period has no rows: its measures are none
		return execAll(ctx, tx, `drop table `+table+`_old`)
	}
	latest, err := periodRowsFromFact(ctx, tx, ds, idx, codes)
	if err != nil {
		return err
	}
	// The periods each term appeared in up to idx: counted from the facts on the side of idx
	// with fewer periods.
	presence := fmt.Sprintf(`(select term_id, count(*)::integer as n from fact where dataset_id = %d and period_idx <= %d
		and term_id between $1 and $2 group by term_id)`, ds, idx)
	if after < before {
		presence = fmt.Sprintf(`(select term_id, sum(n)::integer as n from (select term_id, n from %s
			union all select term_id, -count(*) from fact where dataset_id = %d and period_idx > %d and term_id between $1 and $2 group by term_id)
			group by term_id having sum(n) > 0)`, presenceOf(ds, "term_id between $1 and $2"), ds, idx)
	}
	in := measuresInputs{target: table, presence: presence,
		season: `(select null::integer as term_id, null::double as seasonality where false)`}
	q := measuresSQL(ds, idx, 1, table+"_old", false, latest, in)
	for _, r := range termRanges(maxID.Int64, pastChunk) {
		if _, err := tx.ExecContext(ctx, q, r[0], r[1]); err != nil {
			return err
		}
	}
	// Only table outlives the transaction (it is cached: withPastMeasures).
	return execAll(ctx, tx, `drop table `+table+`_old`, `drop table if exists `+codes)
}
