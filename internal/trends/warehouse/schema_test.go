package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A store whose term_stats was a table written compressed and without the ASIN's code gets
// term_measures on open: every row's measures kept, uncompressed, each with its top ASIN's code,
// the overview lists chosen again and the terms' keys written.
func TestOpenUpgradesAnOlderTermStats(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w, err := OpenFile(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	importFiles(t, w, "ws", seriesFiles(t, 3)...)
	w.WaitBackground()
	// Rewrite term_stats and the overview lists as the earlier schema defined them (a table with
	// no compression clause, no asin1_code).
	err = execAll(ctx, w.db,
		`create table term_stats_old as select * exclude (asin1_code, best_next_last_year, row_id) from term_stats`,
		`delete from term_keys`,
		`drop view term_stats`,
		`drop table term_measures`,
		`alter table term_stats_old rename to term_stats`,
		`drop table overview_rows`,
		`create table overview_rows as select ''::varchar as list, 0 as window_periods, 0 as pos, * from term_stats limit 0`)
	if err != nil {
		t.Fatal(err)
	}
	checkpointWhenIdle(t, w)
	want := termStatsDigest(t, w)
	if got := uncompressedSegments(t, w, "term_stats", "ch_1"); got != 0 {
		t.Fatalf("the old-style table already has %d uncompressed ch_1 segments", got)
	}
	closeChecked(t, w)

	w, err = OpenFile(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer closeChecked(t, w)
	if got := termStatsDigest(t, w); got != want {
		t.Fatalf("rows changed: %q, want %q", got, want)
	}
	checkASINCodes(t, w)
	checkTermKeys(t, w)
	lists, err := w.Overview(ctx, dataset(t, w, "ws"), 1)
	if err != nil || len(lists["risers"].Rows) == 0 || lists["risers"].Rows[0].TopASIN == "" {
		t.Fatalf("overview after the upgrade: %v, %+v", err, lists["risers"])
	}
	checkpointWhenIdle(t, w)
	if got := uncompressedSegments(t, w, "term_measures", "rank_1"); got == 0 {
		t.Fatal("rank_1 is not stored uncompressed after the migration")
	}
}

// A store whose term_stats was sorted by term, with each term's prefix key (term_key), and
// had no term_keys, loses that column and gets term_keys on open, and its terms are found.
func TestOpenMovesTheTermKeys(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w := openAt(t, path)
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}), week(1, map[string]int{"b": 1, "a": 3}))
	err := execAll(ctx, w.db,
		`create table term_stats_old as select * exclude (best_next_last_year, row_id), 0::ubigint as term_key from term_stats order by term`,
		`drop view term_stats`,
		`drop table term_measures`,
		`alter table term_stats_old rename to term_stats`,
		`drop table overview_rows`,
		`create table overview_rows as select ''::varchar as list, 0 as window_periods, 0 as pos, * from term_stats limit 0`,
		`drop table term_keys`, `drop table term_hash_probe`)
	if err != nil {
		t.Fatal(err)
	}
	want := termStatsDigest(t, w)
	closeChecked(t, w)

	w = openAt(t, path)
	defer closeChecked(t, w)
	if got := termStatsDigest(t, w); got != want {
		t.Fatalf("rows changed: %q, want %q", got, want)
	}
	checkTermKeys(t, w)
	checkASINCodes(t, w)
	if cols, err := queryColumn[string](ctx, w.db, `select column_name from duckdb_columns() where table_name in ('term_stats', 'overview_rows') and column_name = 'term_key'`); err != nil || len(cols) > 0 {
		t.Fatalf("term_key left in %v (%v)", cols, err)
	}
	if got := ranksOf(t, w, dataset(t, w, "ws"), "a"); !equalInts(got, []int{1, 3}) {
		t.Fatalf("a's ranks after the upgrade: %v", got)
	}
}

// A store whose term_keys were written by a DuckDB that hashed terms differently (its probe's
// hash differs) gets them written again on open.
func TestOpenRewritesTermKeysWhenTheHashChanged(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w := openAt(t, path)
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}), week(1, map[string]int{"b": 1, "a": 3}))
	if err := execAll(ctx, w.db, `update term_keys set term_hash = term_hash + 1`, `update term_hash_probe set value = value + 1`); err != nil {
		t.Fatal(err)
	}
	closeChecked(t, w)

	w = openAt(t, path)
	defer closeChecked(t, w)
	checkTermKeys(t, w)
	if got := ranksOf(t, w, dataset(t, w, "ws"), "a"); !equalInts(got, []int{1, 3}) {
		t.Fatalf("a's ranks: %v", got)
	}
}

// termStatsDigest digests term_stats' rows, without the ASIN codes and the terms' keys.
func termStatsDigest(t *testing.T, w *Warehouse) string {
	t.Helper()
	cols, err := queryColumn[string](context.Background(), w.db, `select column_name from duckdb_columns()
		where table_name = 'term_stats' and column_name not in ('asin1_code', 'term_key', 'best_next_last_year', 'row_id') order by column_index`)
	if err != nil {
		t.Fatal(err)
	}
	var d string
	err = w.db.QueryRow(`select count(*) || ':' || hash(string_agg(row(` + strings.Join(cols, ", ") + `)::varchar, '|' order by dataset_id, term_id)) from term_stats`).Scan(&d)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkASINCodes fails unless every term's stored top ASIN code is the one the dictionary
// gives its top ASIN's id, and some are set.
func checkASINCodes(t *testing.T, w *Warehouse) {
	t.Helper()
	var set, wrong int
	err := w.db.QueryRow(`select count(s.asin1_code), count(*) filter (where s.asin1_code is distinct from a.asin)
		from term_stats s left join asin a on a.id = s.asin1`).Scan(&set, &wrong)
	if err != nil || set == 0 || wrong > 0 {
		t.Fatalf("ASIN codes: %d set, %d wrong, %v", set, wrong, err)
	}
}

// uncompressedSegments counts the stored segments of table's column that are not compressed.
func uncompressedSegments(t *testing.T, w *Warehouse, table, column string) int {
	t.Helper()
	var n int
	err := w.db.QueryRow(`select count(*) from pragma_storage_info(?) where column_name = ? and segment_type <> 'VALIDITY' and lower(compression) = 'uncompressed'`, table, column).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// checkpointWhenIdle checkpoints once no background write is running: the rewrite above makes
// the background job start again (history file, side tables), and a checkpoint fails while
// any write transaction is open (FORCE CHECKPOINT waited for minutes in the full run).
func checkpointWhenIdle(t *testing.T, w *Warehouse) {
	t.Helper()
	var err error
	for range 50 {
		w.WaitBackground()
		// A statement cancelled as it started (the background job's, when an import preempts
		// it) can leave its connection holding a transaction until that connection runs
		// another statement (flushConnections), and the checkpoint below may run on another.
		w.flushConnections()
		if _, err = w.db.ExecContext(context.Background(), `checkpoint`); err == nil || !strings.Contains(err.Error(), "Cannot CHECKPOINT") {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// The integers behind the measures an earlier term_stats table stored as doubles are recovered
// exactly on open (upgradeTermStats), so the view shows the very values the table held: the best
// rank 4–8 periods after a year ago from coming-up, and the top-3 shares' sums from the
// concentrations, over every value they can take.
func TestOpenRecoversTheMeasuresIntegers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w := openAt(t, path)
	const rows = 200_000
	err := execAll(ctx, w.db,
		`drop view term_stats`,
		`drop table term_measures`,
		`drop table overview_rows`,
		fmt.Sprintf(`create table term_stats as select 1 as dataset_id, i::integer as term_id, 'term ' || i as term, (i + 1)::integer as rank,
			null::integer as rank_1, null::integer as rank_4, null::integer as rank_13, r52::integer as rank_52,
			null::double as ch_1, null::double as ch_4, null::double as ch_13, log2(r52 / (i + 1)) as ch_52,
			1 as periods_present, false as is_new, false as breakout,
			(i %% 30001) / 10000.0 as click_conc, ((i * 7) %% 30001) / 10000.0 as conv_conc, null::double as seasonality,
			log2(r52 / best) as coming_up, [i + 1]::integer[] as spark, null::integer as brand1, null::integer as cat1,
			null::integer as asin1, null::varchar as asin1_code
		from (select i, (i * 7919) %% 3000000 + 1 as r52, (i * 104729) %% 3000000 + 1 as best from range(%d) t(i))`, rows),
		`create table term_stats_want as select * from term_stats`)
	if err != nil {
		t.Fatal(err)
	}
	closeChecked(t, w)

	w = openAt(t, path)
	defer closeChecked(t, w)
	var n, wrongBest, wrongShares, differ int
	err = w.db.QueryRow(`select count(*),
			count(*) filter (where m.best_next_last_year is distinct from (m.term_id::bigint * 104729) % 3000000 + 1),
			count(*) filter (where m.click_top3 is distinct from m.term_id % 30001 or m.conv_top3 is distinct from (m.term_id::bigint * 7) % 30001),
			count(*) filter (where s::varchar is distinct from x::varchar)
		from term_measures m join (select * exclude (best_next_last_year, row_id) from term_stats) s using (term_id)
			join term_stats_want x using (term_id)`).Scan(&n, &wrongBest, &wrongShares, &differ)
	if err != nil {
		t.Fatal(err)
	}
	if n != rows || wrongBest > 0 || wrongShares > 0 || differ > 0 {
		t.Fatalf("%d rows (want %d): %d best ranks, %d shares wrong; %d rows read differently", n, rows, wrongBest, wrongShares, differ)
	}
}
