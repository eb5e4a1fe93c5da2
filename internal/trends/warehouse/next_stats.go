package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// A seller's usual import is next week's report. Everything its measures need except that
// week's own rows is known once the previous import has landed: each term's last 12 ranks and
// the 13th, its ranks a year before, its presence count and seasonality. The background job
// after an import (side_tables.go: afterImport) gathers them per term into stats_next_<id>, so
// the next import's measures join one prepared table instead of grouping 13 periods, six
// year-ago periods and three side tables. stats_next_basis records the newest period it was
// prepared after and a fingerprint of the dataset's period records; any import, replacement
// or deletion since then changes the fingerprint, and the import computes its measures the
// usual way.

func nextStatsTable(ds int) string { return fmt.Sprintf("stats_next_%d", ds) }

// nextStatsUsed counts imports whose measures came from a prepared table (tests read it).
var nextStatsUsed atomic.Int64

// periodsFingerprint identifies the state of a dataset's periods, and the form of the prepared
// table (nextStatsForm): a table prepared in another form is not used.
func periodsFingerprint(ctx context.Context, tx *sql.Tx, ds int) (string, error) {
	var n int
	var last sql.NullString
	var rows sql.NullInt64
	err := tx.QueryRowContext(ctx, `select count(*), max(imported_at)::varchar, sum(rows) from period where dataset_id = ?`, ds).Scan(&n, &last, &rows)
	return fmt.Sprintf("%s/%d/%s/%d", nextStatsForm, n, last.String, rows.Int64), err
}

// nextStatsForm names the prepared table's columns; a table prepared in an earlier form (v2
// had term_order, by which term_stats was once sorted) has a fingerprint without it.
const nextStatsForm = "v3"

// nextStatsReady says whether stats_next_<ds> was prepared for period idx, with nothing
// changed since.
func nextStatsReady(ctx context.Context, tx *sql.Tx, ds, idx int) (bool, error) {
	var after int
	var fingerprint string
	err := tx.QueryRowContext(ctx, `select period_idx, fingerprint from stats_next_basis where dataset_id = ?`, ds).Scan(&after, &fingerprint)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && after+1 != idx) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	now, err := periodsFingerprint(ctx, tx, ds)
	return now == fingerprint, err
}

// prepareNextStats fills stats_next_<ds> for the period after the newest, from the facts, the
// presence counts and the seasonality as they are now (run after refreshSeasonality).
func prepareNextStats(ctx context.Context, tx *sql.Tx, ds int) error {
	var latest, maxID sql.NullInt64
	if err := tx.QueryRowContext(ctx, `select max(period_idx), (select max(term_id) from `+presenceOf(ds, "true")+`) from period where dataset_id = ?`, ds).Scan(&latest, &maxID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `delete from stats_next_basis where dataset_id = ?`, ds); err != nil || !latest.Valid {
		return err
	}
	t := nextStatsTable(ds)
	cols := []string{"term_id integer not null"}
	for i := 1; i < SparkPeriods; i++ {
		cols = append(cols, fmt.Sprintf("p%d integer", i))
	}
	cols = append(cols, "r13 integer", "r52 integer", "best_next_last_year integer", "n integer", "seasonality double")
	if _, err := tx.ExecContext(ctx, `create or replace table `+t+` (`+strings.Join(cols, ", ")+`)`); err != nil {
		return err
	}
	q := nextStatsSQL(ds, int(latest.Int64)+1)
	for _, r := range termRanges(maxID.Int64, statsChunk) {
		if _, err := tx.ExecContext(ctx, q, r[0], r[1]); err != nil {
			return fmt.Errorf("next measures: %w", err)
		}
	}
	fingerprint, err := periodsFingerprint(ctx, tx, ds)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `insert into stats_next_basis values (?, ?, ?)`, ds, latest.Int64, fingerprint)
	return err
}

// nextStatsSQL gathers, for period N and the term range $1..$2, what measuresTemplate reads
// from fact, presence and season: p1..p12 and r13 as its "recent", r52 and
// best_next_last_year as its "yearly".
func nextStatsSQL(ds, N int) string {
	var recent, names []string
	for i := 1; i < SparkPeriods; i++ {
		recent = append(recent, fmt.Sprintf("max(rank) filter (where period_idx = %d) as p%d", N-i, i))
		names = append(names, fmt.Sprintf("r.p%d", i))
	}
	yearAgo := N - yearOfPeriods
	yearly := []string{strconv.Itoa(yearAgo)}
	for i := ComingUpFrom; i <= ComingUpTo; i++ {
		yearly = append(yearly, strconv.Itoa(yearAgo+i))
	}
	return fmt.Sprintf(`insert into %[1]s
		with recent as (
			select term_id, %[2]s, max(rank) filter (where period_idx = %[3]d) as r13
			from fact where dataset_id = %[4]d and term_id between $1 and $2 and period_idx between %[3]d and %[5]d
			group by term_id),
		yearly as (
			select term_id, max(rank) filter (where period_idx = %[6]d) as r52,
				min(rank) filter (where period_idx between %[7]d and %[8]d) as best_next_last_year
			from fact where dataset_id = %[4]d and term_id between $1 and $2 and period_idx in (%[9]s)
			group by term_id)
		select p.term_id, %[10]s, r.r13, y.r52, y.best_next_last_year, p.n, s.seasonality
		from %[11]s p left join recent r on r.term_id = p.term_id left join yearly y on y.term_id = p.term_id
		left join %[12]s s on s.term_id = p.term_id
		where p.term_id between $1 and $2`,
		nextStatsTable(ds), strings.Join(recent, ", "), N-SparkPeriods, ds, N-1,
		yearAgo, yearAgo+ComingUpFrom, yearAgo+ComingUpTo, strings.Join(yearly, ","),
		strings.Join(names, ", "), presenceOf(ds, "term_id between $1 and $2"), seasonTable(ds))
}
