package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
)

// The term-ordered copy. fact is appended a period at a time, so one term's rows sit in a
// different row group for every period and its history touches 156 row groups at full size
// (stack.md measured 193 ms). A per-dataset copy ordered by (term_id, period_idx) puts a term's
// whole history in one or two row groups (3.6 ms). Rebuilding it is a full sort, so it is not
// done on every import: periods imported since the last rebuild are read from fact (a few row
// groups each, since fact is ordered by term within a period), and the copy is rebuilt in the
// background once CompactAfter periods have piled up. The compacted table says which periods
// the copy holds current rows for; a re-imported or deleted period leaves it at once.

// CompactAfter is how many periods may be read from fact before the copy is rebuilt.
const CompactAfter = 8

// factColumns are the columns history reads, in both tables.
const factColumns = `term_id, period_idx, rank, asin1, asin2, asin3, click1, click2, click3, conv1, conv2, conv3,
	brand1, brand2, brand3, cat1, cat2, cat3`

// byTermTable names a dataset's term-ordered copy; ds comes from our own dataset table.
func byTermTable(ds int) string { return fmt.Sprintf("fact_by_term_%d", ds) }

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
		fmt.Sprintf(`delete from compacted where dataset_id = %d`, ds),
		fmt.Sprintf(`insert into compacted select dataset_id, period_idx from period where dataset_id = %d`, ds),
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("compact: %w", err)
		}
	}
	return tx.Commit()
}

// uncompacted counts the periods history must read from fact.
func uncompacted(ctx context.Context, q queryer, ds int) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `select count(*) from period p where p.dataset_id = ?
		and not exists (select 1 from compacted c where c.dataset_id = p.dataset_id and c.period_idx = p.period_idx)`, ds).Scan(&n)
	return n, err
}

// removePeriodFacts deletes a period's facts (before a replacement or for a deletion), keeps the
// term ids it held in a temporary table for adjustPresence (which drops it), and takes the period
// out of the copy's index, so the copy's now stale rows for it are never read.
func removePeriodFacts(ctx context.Context, tx *sql.Tx, ds, idx int) (old string, err error) {
	old = "old_period_" + randomHex(8)
	steps := []struct {
		q    string
		args []any
	}{
		{`create temp table ` + old + ` as select term_id from fact where dataset_id = ? and period_idx = ?`, []any{ds, idx}},
		{`delete from fact where dataset_id = ? and period_idx = ?`, []any{ds, idx}},
		{`delete from compacted where dataset_id = ? and period_idx = ?`, []any{ds, idx}},
	}
	for _, s := range steps {
		if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
			return "", err
		}
	}
	return old, nil
}

// compactIfDue rebuilds the copy once enough periods sit outside it (called by the background
// job after imports). Readers keep reading the old copy (and fact) until the rebuild commits.
func (w *Warehouse) compactIfDue(ctx context.Context, ds int) {
	n, err := uncompacted(ctx, w.db, ds)
	if err != nil || n < CompactAfter {
		return
	}
	if err := w.Compact(ctx, ds); err != nil && ctx.Err() == nil {
		slog.Error("trends: rebuilding the term-ordered copy failed", "dataset", ds, "err", err)
	}
}
