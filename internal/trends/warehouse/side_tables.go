package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"
)

// Two measures look at a term's whole history and would make every import scan every period
// (468M rows at full size), so they live in per-dataset side tables kept current another way:
//
//	presence_<id>  periods each term appears in. An import appends its changes to
//	               presence_log_<id> (-1 for the replaced period's rows, +1 for the new ones:
//	               rewriting the 3M-row table cost 1.1-1.3 s of each import), readers add
//	               them up (presenceOf), and the background job folds them in; RebuildStats
//	               recounts it in full.
//	season_<id>    the year-over-year correlation (seasonality): recomputed in the background
//	               after each import and in full by RebuildStats; an import reads the last one.
//
// After seasonality, the background job also prepares stats_next_<id>, the next week's
// measures inputs (next_stats.go).

func presenceTable(ds int) string    { return fmt.Sprintf("presence_%d", ds) }
func presenceLogTable(ds int) string { return fmt.Sprintf("presence_log_%d", ds) }
func seasonTable(ds int) string      { return fmt.Sprintf("season_%d", ds) }

// presenceOf is the subquery of the presence counts (term_id, n) of the terms where cond
// holds, with the changes not yet folded in.
func presenceOf(ds int, cond string) string {
	return fmt.Sprintf(`(select term_id, sum(n)::integer as n from (
		select term_id, n from %[1]s where %[3]s union all select term_id, n from %[2]s where %[3]s)
		group by term_id having sum(n) > 0)`, presenceTable(ds), presenceLogTable(ds), cond)
}

type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

func execAll(ctx context.Context, ex execer, qs ...string) error {
	for _, q := range qs {
		if _, err := ex.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// ensureSideTables creates the side tables of a dataset that has none yet (a new dataset, or a
// store written before they existed: then presence is counted once).
func ensureSideTables(ctx context.Context, tx *sql.Tx, ds int) error {
	return execAll(ctx, tx,
		fmt.Sprintf(`create table if not exists %s as select term_id, count(*)::integer as n from fact where dataset_id = %d group by term_id`, presenceTable(ds), ds),
		fmt.Sprintf(`create table if not exists %s (term_id integer not null, n integer not null)`, presenceLogTable(ds)),
		fmt.Sprintf(`create table if not exists %s (term_id integer not null, seasonality double not null)`, seasonTable(ds)))
}

// adjustPresence records one period's replacement in the presence log: old is the temporary
// table of the term ids the period held before (removePeriodFacts; dropped here), the period's
// new rows are in fact already.
func adjustPresence(ctx context.Context, tx *sql.Tx, ds, idx int, old string) error {
	return execAll(ctx, tx, fmt.Sprintf(`insert into %[1]s select term_id, -1 from %[2]s;
		insert into %[1]s select term_id, 1 from fact where dataset_id = %[3]d and period_idx = %[4]d`, presenceLogTable(ds), old, ds, idx),
		`drop table `+old)
}

// foldPresence adds the logged changes into presence and empties the log.
func foldPresence(ctx context.Context, tx *sql.Tx, ds int) error {
	var logged int
	if err := tx.QueryRowContext(ctx, `select count(*) from `+presenceLogTable(ds)).Scan(&logged); err != nil || logged == 0 {
		return err
	}
	return execAll(ctx, tx, fmt.Sprintf(`create or replace table %s as select * from %s`, presenceTable(ds), presenceOf(ds, "true")),
		`delete from `+presenceLogTable(ds))
}

// recountPresence counts every term's periods from scratch.
func recountPresence(ctx context.Context, tx *sql.Tx, ds int) error {
	return execAll(ctx, tx, fmt.Sprintf(`create or replace table %s as
		select term_id, count(*)::integer as n from fact where dataset_id = %d group by term_id`, presenceTable(ds), ds),
		`delete from `+presenceLogTable(ds))
}

// refreshSeasonality recomputes season_<ds> for the window ending at the latest period, by term
// range (the self-join over two years of a 3M-term dataset does not fit in memory at once), and
// copies the values into term_stats.
func refreshSeasonality(ctx context.Context, tx *sql.Tx, ds int) error {
	var latest, maxID sql.NullInt64
	err := tx.QueryRowContext(ctx, `select max(period_idx), (select max(id) from term where dataset_id = ?) from period where dataset_id = ?`, ds, ds).Scan(&latest, &maxID)
	if err != nil || !latest.Valid {
		return err
	}
	L, t := int(latest.Int64), seasonTable(ds)
	if err := execAll(ctx, tx, fmt.Sprintf(`create or replace table %s (term_id integer not null, seasonality double not null)`, t)); err != nil {
		return err
	}
	q := fmt.Sprintf(`insert into %[1]s
		select a.term_id, corr(ln(a.rank), ln(b.rank)) from fact a
		join fact b on b.dataset_id = a.dataset_id and b.term_id = a.term_id and b.period_idx = a.period_idx - %[4]d
		where a.dataset_id = %[2]d and a.period_idx > %[3]d - %[4]d and b.period_idx > %[3]d - 2 * %[4]d
			and a.term_id between $1 and $2 and b.term_id between $1 and $2
		group by a.term_id having count(*) >= %[5]d and isfinite(corr(ln(a.rank), ln(b.rank)))`, t, ds, L, yearOfPeriods, MinSeasonPairs)
	for _, r := range termRanges(maxID.Int64, statsChunk) {
		if _, err := tx.ExecContext(ctx, q, r[0], r[1]); err != nil {
			return fmt.Errorf("seasonality: %w", err)
		}
	}
	return execAll(ctx, tx, fmt.Sprintf(`update term_stats s set seasonality = x.seasonality from (
		select s2.term_id, n.seasonality from term_stats s2 left join %s n on n.term_id = s2.term_id where s2.dataset_id = %d) x
		where s.dataset_id = %d and s.term_id = x.term_id and s.seasonality is distinct from x.seasonality`, t, ds, ds))
}

// backgroundHook, when tests set it, runs in the background job while it holds the writer lock.
var backgroundHook func(ctx context.Context)

// refreshSeasonalityNow runs refreshSeasonality and prepareNextStats in their own transaction
// under the write lock.
func (w *Warehouse) refreshSeasonalityNow(ctx context.Context, ds int) error {
	defer w.lockWriter(ctx)()
	if err := ctx.Err(); err != nil {
		return err // preempted while waiting for the lock
	}
	if backgroundHook != nil {
		backgroundHook(ctx)
	}
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := ensureSideTables(ctx, tx, ds); err != nil {
		return err
	}
	if err := foldPresence(ctx, tx, ds); err != nil {
		return err
	}
	if err := refreshSeasonality(ctx, tx, ds); err != nil {
		return err
	}
	if err := prepareNextStats(ctx, tx, ds); err != nil {
		return err
	}
	if err := writeTermKeys(ctx, tx, ds); err != nil { // the import's new keys, sorted in
		return err
	}
	w.at(StepBackground)
	return tx.Commit()
}

// afterImport refreshes seasonality and prepares the next week's measures inputs, then
// rebuilds the term-ordered copy if it is due, in the background: the import has already
// committed with every other measure current. A second import meanwhile marks the dataset
// dirty and the job runs again; an import or delete waiting for the writer lock cancels the
// run in progress (preemptBackground), which then starts over once the lock is free. The job
// holds the lock for 25-50 s at 3M terms and the copy's rebuild for minutes, so without that
// each file of a bulk load would wait for the previous one's job.
func (w *Warehouse) afterImport(ds int) {
	w.bgMu.Lock()
	defer w.bgMu.Unlock()
	if w.bgCtx.Err() != nil {
		return
	}
	if _, ok := w.behind[ds]; !ok {
		w.behind[ds] = time.Now()
	}
	if w.running[ds] {
		w.dirty[ds] = true
		return
	}
	w.running[ds] = true
	w.bg.Add(1)
	go func() {
		defer w.bg.Done()
		for w.backgroundRun(ds) {
		}
	}()
}

// backgroundRun runs the job once and says whether it must run again.
func (w *Warehouse) backgroundRun(ds int) (again bool) {
	ctx, cancel := context.WithCancel(w.bgCtx)
	defer cancel()
	w.bgMu.Lock()
	w.runs[ds] = cancel
	w.bgMu.Unlock()
	// A dataset deleted meanwhile (DeleteWorkspace) must not get its side tables back.
	if !w.datasetExists(ctx, ds) {
		w.bgMu.Lock()
		defer w.bgMu.Unlock()
		delete(w.runs, ds)
		delete(w.running, ds)
		delete(w.dirty, ds)
		delete(w.behind, ds)
		return false
	}
	// First the ASIN index, which the next import looks products up in: it only reads the
	// store and takes a fraction of a second once built.
	if err := w.refreshASINIndex(ctx); err != nil && ctx.Err() == nil {
		slog.Error("trends: extending the ASIN index failed", "err", err)
	}
	err := w.refreshSeasonalityNow(ctx, ds)
	if err == nil {
		w.at(StepCopy)
		w.compactIfDue(ctx, ds)
		if err := w.refreshHistoryFile(ctx, ds); err != nil && ctx.Err() == nil {
			slog.Error("trends: writing the history file failed", "dataset", ds, "err", err)
		}
	} else if ctx.Err() == nil {
		slog.Error("trends: refreshing seasonality failed", "dataset", ds, "err", err)
	}
	w.bgMu.Lock()
	defer w.bgMu.Unlock()
	delete(w.runs, ds)
	preempted := ctx.Err() != nil
	if !preempted {
		delete(w.behind, ds)
		if w.dirty[ds] { // an import landed meanwhile: the results it needs are new
			w.behind[ds] = time.Now()
		}
	}
	if w.bgCtx.Err() != nil || (!w.dirty[ds] && !preempted) {
		delete(w.running, ds)
		delete(w.dirty, ds)
		return false
	}
	delete(w.dirty, ds)
	return true
}

// maxBackgroundDelay is how long a dataset's background results may stay outstanding because
// imports keep cancelling its job; past it the job is let finish (an import then waits for it),
// so a steady stream of imports cannot keep seasonality and the copy stale forever.
var maxBackgroundDelay = 10 * time.Minute

// preemptBackground cancels the background runs in progress, unless their results are overdue
// (maxBackgroundDelay): a writer is about to wait for the lock they may hold. Their work is
// rolled back and redone after it.
func (w *Warehouse) preemptBackground() {
	w.bgMu.Lock()
	defer w.bgMu.Unlock()
	for ds, cancel := range w.runs {
		if time.Since(w.behind[ds]) < maxBackgroundDelay {
			cancel()
		}
	}
}
