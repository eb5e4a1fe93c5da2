package warehouse

import (
	"context"
	"fmt"
	"strings"
)

// DeleteWorkspace removes every dataset of a workspace: its rows in the shared tables (every
// table with a dataset_id column, in the store and in the copy file), its own side tables and
// term-ordered copies, and its background work. Deleting an account calls it for the account's
// workspaces. Dataset ids come from a sequence and are never reused, so no cache can hand a
// deleted dataset's answers to a later one.
func (w *Warehouse) DeleteWorkspace(ctx context.Context, workspace string) error {
	sets, err := w.Datasets(ctx, workspace)
	if err != nil || len(sets) == 0 {
		return err
	}
	w.preemptBackground()
	defer w.lockWriter(ctx)()
	for _, d := range sets {
		w.deleted.Store(d.ID, true)
	}
	tables, err := queryRows(ctx, w, `select c.database_name, c.schema_name, c.table_name from duckdb_columns() c
		join duckdb_tables() t using (database_name, schema_name, table_name)
		where c.column_name = 'dataset_id' and c.database_name in (current_database(), ?)`, copyDB)
	if err != nil {
		return fmt.Errorf("delete workspace: list tables: %w", err)
	}
	// A DuckDB transaction writes to one attached database: the copy file first, then the
	// store, whose dataset rows go last so a failure leaves the workspace there to delete again
	// (a missing copy is rebuilt from the store).
	for _, db := range []string{copyDB, ""} {
		if err := w.deleteDatasetsIn(ctx, db, workspace, sets, tables); err != nil {
			return err
		}
	}
	w.forgetDatasets(sets)
	w.removeHistoryFiles(sets)
	return nil
}

// Deleted says whether the deletion of dataset id has begun. A question that read the
// dataset's state before a deletion committed and its tables after fails on a table that is
// gone; its caller answers that the dataset is not found rather than with a server error. Ids
// are never reused, so the mark stays: a deletion that fails midway is retried, not undone.
func (w *Warehouse) Deleted(id int) bool {
	_, ok := w.deleted.Load(id)
	return ok
}

// deleteDatasetsIn deletes the datasets' rows and tables in one attached database: the copy
// file (db copyDB) or the store (db "", which also deletes the dataset rows).
func (w *Warehouse) deleteDatasetsIn(ctx context.Context, db, workspace string, sets []Dataset, tables [][3]string) error {
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	inCopy := func(name string) bool { return strings.HasPrefix(name, copyDB+".") }
	for _, d := range sets {
		for _, t := range tables {
			if (t[0] == copyDB) != (db == copyDB) {
				continue
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`delete from %q.%q.%q where dataset_id = ?`, t[0], t[1], t[2]), d.ID); err != nil {
				return fmt.Errorf("delete workspace: %s: %w", t[2], err)
			}
		}
		for _, table := range datasetTables(d.ID) {
			if inCopy(table) != (db == copyDB) {
				continue
			}
			if _, err := tx.ExecContext(ctx, `drop table if exists `+table); err != nil {
				return fmt.Errorf("delete workspace: drop %s: %w", table, err)
			}
		}
	}
	if db == "" {
		if _, err := tx.ExecContext(ctx, `delete from dataset where workspace = ?`, workspace); err != nil {
			return fmt.Errorf("delete workspace: datasets: %w", err)
		}
	}
	return tx.Commit()
}

// datasetTables are the tables a dataset has of its own (side_tables.go, next_stats.go,
// compact.go, term_products.go, term_lists.go, term_tops.go).
func datasetTables(ds int) []string {
	return []string{presenceTable(ds), presenceLogTable(ds), seasonTable(ds), nextStatsTable(ds), byTermTable(ds), productsTable(ds),
		ranksTable(ds), itemsTable(ds), topsTable(ds), topsPeriodsTable(ds), topsItemsTable(ds)}
}

// forgetDatasets drops the deleted datasets from the background bookkeeping and the products
// table list.
func (w *Warehouse) forgetDatasets(sets []Dataset) {
	w.bgMu.Lock()
	for _, d := range sets {
		if cancel, ok := w.runs[d.ID]; ok {
			cancel()
		}
		delete(w.dirty, d.ID)
		delete(w.behind, d.ID)
	}
	w.bgMu.Unlock()
	for _, t := range []*productTables{w.products, w.tops} {
		t.mu.Lock()
		for _, d := range sets {
			delete(t.has, d.ID)
		}
		t.mu.Unlock()
	}
}

// queryRows reads three-column string rows.
func queryRows(ctx context.Context, w *Warehouse, q string, args ...any) ([][3]string, error) {
	rows, err := w.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][3]string
	for rows.Next() {
		var r [3]string
		if err := rows.Scan(&r[0], &r[1], &r[2]); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// datasetExists tells whether dataset ds is still there (true when that cannot be read: the
// background job then runs and reports its own error).
func (w *Warehouse) datasetExists(ctx context.Context, ds int) bool {
	var n int
	if err := w.db.QueryRowContext(ctx, `select count(*) from dataset where id = ?`, ds).Scan(&n); err != nil {
		return true
	}
	return n > 0
}
