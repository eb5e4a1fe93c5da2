package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
)

// The term-ordered copy. fact is appended a period at a time, so one term's rows sit in a
// different row group for every period and its history touches 156 row groups at full size
// (stack.md measured 193 ms). A per-dataset copy ordered by (term_id, period_idx) puts a term's
// whole history in one or two row groups (3.6 ms). Rebuilding it is a full sort, so it is not
// done on every import: a new period's rows are appended to the copy in the background after
// its import (sorted by term, so a history reads one more row group per appended period), a
// replaced one is read from fact (a few row groups, since fact is ordered by term within a
// period), and the copy is rebuilt in the background once CompactAfter periods sit outside it
// or in appended runs.
//
// The copies live in a file of their own (copyDB), written with 64 KB blocks instead of
// DuckDB's 256 KB: a history reads a few hundred bytes of each of its 18 columns, and every
// block it misses in the buffer pool is read whole into freshly allocated memory, whose page
// faults were most of a cold lookup's time. The rows step's p95, 2,000 lookups at a time in
// one process per block size: 7.8/7.5/5.5/4.6 ms with 64 KB against 16.0/8.6/7.8/7.2 with
// 256 KB. 16 KB blocks were as fast but kept the metadata of many more segments resident
// outside the buffer pool: RSS grew to 1.29 GB against 0.97 GB (3M terms x 156 weeks).
//
// The copy's compacted table records which periods it holds and the import each came from
// (the period record's imported_at): history reads a period from the copy only when that
// import is still the period's current one, so a re-imported or deleted period is read from
// fact at once. This keeps every write inside one file per transaction, as DuckDB requires:
// imports write the store, rebuilds write the copy file.

// copyDB is the attached database holding the term-ordered copies.
const copyDB = "term_copy"

// copyBlockSize is the copy file's block size (set when the file is created).
const copyBlockSize = 64 * 1024

// copyPath is the copy file for the store at path: trends.duckdb -> trends-copy.duckdb.
func copyPath(path string) string { return strings.TrimSuffix(path, ".duckdb") + "-copy.duckdb" }

// attachCopies attaches (creating) the copy file. The block size is chosen when the file is
// created; an existing file keeps its own. The path is quoted for SQL.
func attachCopies(ctx context.Context, db *sql.DB, path string) error {
	options := ""
	if _, err := os.Stat(copyPath(path)); errors.Is(err, os.ErrNotExist) {
		options = fmt.Sprintf(" (block_size %d)", copyBlockSize)
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf(`attach if not exists '%s' as %s%s`,
		strings.ReplaceAll(copyPath(path), "'", "''"), copyDB, options))
	return err
}

// CompactAfter is how many periods may be read from fact before the copy is rebuilt.
const CompactAfter = 8

// factColumns are the columns history reads, in both tables.
const factColumns = `term_id, period_idx, rank, asin1, asin2, asin3, click1, click2, click3, conv1, conv2, conv3,
	brand1, brand2, brand3, cat1, cat2, cat3`

// byTermTable names a dataset's term-ordered copy; ds comes from our own dataset table.
func byTermTable(ds int) string { return fmt.Sprintf("%s.fact_by_term_%d", copyDB, ds) }

// Compact rebuilds a dataset's term-ordered copy now (bulk loads call it once at the end).
func (w *Warehouse) Compact(ctx context.Context, ds int) error {
	defer w.lockWriter(ctx)()
	if err := ctx.Err(); err != nil {
		return err
	}
	return w.compact(ctx, ds)
}

func (w *Warehouse) compact(ctx context.Context, ds int) error {
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	steps := []string{
		fmt.Sprintf(`create or replace table %s as select %s from fact where dataset_id = %d order by term_id, period_idx`, byTermTable(ds), factColumns, ds),
		fmt.Sprintf(`delete from %s.compacted where dataset_id = %d`, copyDB, ds),
		fmt.Sprintf(`insert into %s.compacted (dataset_id, period_idx, imported_at) select dataset_id, period_idx, imported_at
			from period where dataset_id = %d`, copyDB, ds),
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("compact: %w", err)
		}
	}
	if err := w.commitWithProducts(ctx, tx, ds); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	return nil
}

// copyHolds matches a row c of the copy's index to the period record p whose current rows
// the copy holds: the copy was built from the period's present import.
const copyHolds = `c.dataset_id = p.dataset_id and c.period_idx = p.period_idx and c.imported_at = p.imported_at`

// outsideCopy holds for a period record p that history must read from fact.
const outsideCopy = `not exists (select 1 from ` + copyDB + `.compacted c where ` + copyHolds + `)`

// removePeriodFacts deletes a period's facts (before a replacement or for a deletion) and keeps
// the term ids it held in a temporary table for adjustPresence (which drops it). The copy's
// rows for the period are never read again: their import is no longer the period's.
func removePeriodFacts(ctx context.Context, tx *sql.Tx, ds, idx int) (old string, err error) {
	old = "old_period_" + randomHex(8)
	steps := []struct {
		q    string
		args []any
	}{
		{`create temp table ` + old + ` as select term_id from fact where dataset_id = ? and period_idx = ?`, []any{ds, idx}},
		{`delete from fact where dataset_id = ? and period_idx = ?`, []any{ds, idx}},
	}
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
			return "", err
		}
	}
	return old, nil
}

// compactIfDue keeps the copy close to the periods (called by the background job after
// imports): it rebuilds the copy once CompactAfter periods are read from fact or from appended
// runs, and otherwise appends the new periods. Readers keep reading the old copy (and fact)
// until either commits. A copy built before the products table existed gets one.
func (w *Warehouse) compactIfDue(ctx context.Context, ds int) {
	outside, appended, err := copyCoverage(ctx, w.db, ds)
	if err != nil {
		return
	}
	if outside > 0 {
		work, what := w.Compact, "rebuilding"
		if outside+appended < CompactAfter {
			work, what = w.appendToCopy, "appending to"
		}
		if err := work(ctx, ds); err != nil && ctx.Err() == nil {
			slog.Error("trends: "+what+" the term-ordered copy failed", "dataset", ds, "err", err)
		}
	}
	if err := w.ensureProducts(ctx, ds); err != nil && ctx.Err() == nil {
		slog.Error("trends: building the products by term failed", "dataset", ds, "err", err)
	}
	if err := w.ensureTops(ctx, ds); err != nil && ctx.Err() == nil {
		slog.Error("trends: building the term tops failed", "dataset", ds, "err", err)
	}
}

// copyCoverage counts a dataset's periods read from fact and those read from runs appended to
// the copy since its last rebuild.
func copyCoverage(ctx context.Context, q queryer, ds int) (outside, appended int, err error) {
	err = q.QueryRowContext(ctx, `select count(*) filter (where c.period_idx is null), count(*) filter (where c.appended)
		from period p left join `+copyDB+`.compacted c on `+copyHolds+` where p.dataset_id = ?`, ds).Scan(&outside, &appended)
	return outside, appended, err
}

// appendToCopy appends to an existing copy the rows of the periods it has never held, each
// sorted by term, and records them as appended. A replaced period is left to the next rebuild:
// the copy still has its old rows, which history skips but an append would add to.
func (w *Warehouse) appendToCopy(ctx context.Context, ds int) error {
	defer w.lockWriter(ctx)()
	if err := ctx.Err(); err != nil {
		return err
	}
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	fresh, err := queryColumn[int](ctx, tx, `select p.period_idx from period p where p.dataset_id = ?
		and exists (select 1 from `+copyDB+`.compacted c where c.dataset_id = p.dataset_id)
		and not exists (select 1 from `+copyDB+`.compacted c where c.dataset_id = p.dataset_id and c.period_idx = p.period_idx)
		order by p.period_idx`, ds)
	if err != nil || len(fresh) == 0 {
		return err
	}
	for _, idx := range fresh {
		err := execAll(ctx, tx,
			fmt.Sprintf(`insert into %s select %s from fact where dataset_id = %d and period_idx = %d order by term_id`, byTermTable(ds), factColumns, ds, idx),
			fmt.Sprintf(`insert into %s.compacted select dataset_id, period_idx, imported_at, true from period where dataset_id = %d and period_idx = %d`, copyDB, ds, idx))
		if err != nil {
			return fmt.Errorf("append to the copy: %w", err)
		}
	}
	return tx.Commit()
}

// ResumeCopies starts the background rebuild of every copy that is due: after an upgrade moved
// the copies into their own file, or when the copy file was lost (history reads fact until
// then). It also brings the ASIN index up to date (asin_index.go). The server calls it once the
// store is open.
func (w *Warehouse) ResumeCopies(ctx context.Context) error {
	w.refreshASINIndexLater()
	due, err := queryColumn[int](ctx, w.db, `select p.dataset_id from period p where `+outsideCopy+`
		group by p.dataset_id having count(*) >= ?`, CompactAfter)
	if err != nil {
		return err
	}
	copied, err := queryColumn[int](ctx, w.db, `select distinct dataset_id from `+copyDB+`.compacted`)
	if err != nil {
		return err
	}
	for _, ds := range copied {
		if (!w.products.holds(ds) || !w.tops.holds(ds)) && !slices.Contains(due, ds) {
			due = append(due, ds)
		}
	}
	for _, ds := range due {
		w.afterImport(ds)
	}
	w.refreshHistoryFilesLater()
	return nil
}

// dropOldCopies drops the copies and their index that stores written before the copy file kept
// in the store itself; ResumeCopies rebuilds them in the copy file.
func dropOldCopies(ctx context.Context, db *sql.DB) error {
	return dropMatchingTables(ctx, db, `(table_name = 'compacted' or table_name like 'fact\_by\_term\_%' escape '\')`)
}
