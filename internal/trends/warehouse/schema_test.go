package warehouse

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// A store whose term_stats was written compressed and without the ASIN's code (before
// termStatsColumns) gets the present table on open: every row kept, uncompressed, each with its
// top ASIN's code, the overview lists chosen again and the terms' keys written.
func TestOpenUpgradesAnOlderTermStats(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w, err := OpenFile(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	importFiles(t, w, "ws", seriesFiles(t, 3)...)
	w.WaitBackground()
	// Rewrite term_stats and the overview lists as the earlier schema defined them (no
	// compression clause, no asin1_code).
	err = execAll(ctx, w.db,
		`create table term_stats_old as select * exclude (asin1_code) from term_stats`,
		`delete from term_keys`,
		`drop table term_stats`,
		`alter table term_stats_old rename to term_stats`,
		`drop table overview_rows`,
		`create table overview_rows as select ''::varchar as list, 0 as window_periods, 0 as pos, * from term_stats limit 0`)
	if err != nil {
		t.Fatal(err)
	}
	checkpointWhenIdle(t, w)
	want := termStatsDigest(t, w)
	if got := uncompressedSegments(t, w); got != 0 {
		t.Fatalf("the old-style table already has %d uncompressed click_conc segments", got)
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
	checkTermKeys(t, w, true)
	lists, err := w.Overview(ctx, dataset(t, w, "ws"), 1)
	if err != nil || len(lists["risers"].Rows) == 0 || lists["risers"].Rows[0].TopASIN == "" {
		t.Fatalf("overview after the upgrade: %v, %+v", err, lists["risers"])
	}
	checkpointWhenIdle(t, w)
	if got := uncompressedSegments(t, w); got == 0 {
		t.Fatal("click_conc is not stored uncompressed after the migration")
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
		`create table term_stats_old as select *, 0::ubigint as term_key from term_stats order by term`,
		`drop table term_stats`,
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
	checkTermKeys(t, w, true)
	checkASINCodes(t, w)
	if cols, err := queryColumn[string](ctx, w.db, `select column_name from duckdb_columns() where table_name in ('term_stats', 'overview_rows') and column_name = 'term_key'`); err != nil || len(cols) > 0 {
		t.Fatalf("term_key left in %v (%v)", cols, err)
	}
	if got := ranksOf(t, w, dataset(t, w, "ws"), "a"); !equalInts(got, []int{1, 3}) {
		t.Fatalf("a's ranks after the upgrade: %v", got)
	}
}

// A store whose term_stats stored the changes (ch_1..ch_52, before they were computed from
// the ranks where read) loses those columns on open, in term_stats and the overview lists,
// and its lists show the same changes as before.
func TestOpenDropsTheStoredChanges(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w := openAt(t, path)
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2, "c": 3}), week(1, map[string]int{"b": 1, "a": 3, "c": 4}),
		week(2, map[string]int{"c": 1, "a": 2, "b": 3}))
	changes := func(w *Warehouse) string {
		t.Helper()
		page, err := w.Explore(ctx, dataset(t, w, "ws"), ExploreQuery{List: "risers", Window: 1, Sort: "change1", Desc: true, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range page.Rows {
			out = append(out, fmt.Sprintf("%s %v", r.Term, *r.Changes[0]))
		}
		return strings.Join(out, ", ")
	}
	want := changes(w)
	var c, a float64
	if _, err := fmt.Sscanf(want, "c %g, a %g", &c, &a); err != nil || math.Abs(c-2) > 1e-12 || math.Abs(a-math.Log2(1.5)) > 1e-12 {
		t.Fatalf("risers before the upgrade: %s (%v)", want, err)
	}
	// The earlier form: the four changes stored after the ranks, in the overview lists too.
	stored := `create table %[1]s_old as select * exclude (periods_present, is_new, breakout, click_conc, conv_conc, seasonality,
			coming_up, spark, brand1, cat1, asin1, asin1_code),
		log2(rank_1 / rank) ch_1, log2(rank_4 / rank) ch_4, log2(rank_13 / rank) ch_13, log2(rank_52 / rank) ch_52,
		columns(* exclude (%[2]s dataset_id, term_id, term, rank, rank_1, rank_4, rank_13, rank_52)) from %[1]s`
	err := execAll(ctx, w.db,
		fmt.Sprintf(stored, "term_stats", ""), `drop table term_stats`, `alter table term_stats_old rename to term_stats`,
		fmt.Sprintf(stored, "overview_rows", "list, window_periods, pos,"), `drop table overview_rows`, `alter table overview_rows_old rename to overview_rows`)
	if err != nil {
		t.Fatal(err)
	}
	digest := termStatsDigest(t, w)
	closeChecked(t, w)

	w = openAt(t, path)
	defer closeChecked(t, w)
	if cols, err := queryColumn[string](ctx, w.db, `select table_name || '.' || column_name from duckdb_columns()
		where table_name in ('term_stats', 'overview_rows') and column_name like 'ch\_%' escape '\'`); err != nil || len(cols) > 0 {
		t.Fatalf("changes left stored in %v (%v)", cols, err)
	}
	if got := termStatsDigest(t, w); got != digest {
		t.Fatalf("rows changed: %q, want %q", got, digest)
	}
	if got := changes(w); got != want {
		t.Fatalf("risers after the upgrade: %s, want %s", got, want)
	}
	lists, err := w.Overview(ctx, dataset(t, w, "ws"), 1)
	if err != nil || len(lists["risers"].Rows) != 2 || *lists["risers"].Rows[0].Changes[0] != math.Log2(4.0/1) {
		t.Fatalf("overview after the upgrade: %v, %+v", err, lists["risers"])
	}
}

// A store whose term_keys held the latest period's terms only (before imports appended each
// new term's key) gets the keys of every term of the dictionary on open, so a term absent
// from the latest period is found when it comes back.
func TestOpenWritesKeysForEveryTerm(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w := openAt(t, path)
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}), week(1, map[string]int{"b": 1}))
	w.WaitBackground()
	err := execAll(ctx, w.db,
		`delete from term_keys where term_id not in (select term_id from term_stats)`,
		`delete from store_upgrades where name = 'term-keys-every-term'`)
	if err != nil {
		t.Fatal(err)
	}
	closeChecked(t, w)

	w = openAt(t, path)
	defer closeChecked(t, w)
	checkTermKeys(t, w, true)
	load(t, w, "ws", week(2, map[string]int{"a": 1, "b": 2}))
	if got := ranksOf(t, w, dataset(t, w, "ws"), "a"); !equalInts(got, []int{1, 0, 1}) {
		t.Fatalf("a's ranks after it came back: %v", got)
	}
	// A root-word group's top terms are found by their keys alone.
	rows, err := w.termRowsOf(ctx, dataset(t, w, "ws"), []string{"a"})
	if err != nil || len(rows) != 1 || rows[0].Term != "a" || rows[0].Rank != 1 {
		t.Fatalf("a's row after it came back: %+v, %v", rows, err)
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
	checkTermKeys(t, w, true)
	if got := ranksOf(t, w, dataset(t, w, "ws"), "a"); !equalInts(got, []int{1, 3}) {
		t.Fatalf("a's ranks: %v", got)
	}
}

// termStatsDigest digests term_stats' rows, without the ASIN codes, the terms' keys and the
// changes an older form stored.
func termStatsDigest(t *testing.T, w *Warehouse) string {
	t.Helper()
	cols, err := queryColumn[string](context.Background(), w.db, `select column_name from duckdb_columns()
		where table_name = 'term_stats' and column_name not in ('asin1_code', 'term_key', 'ch_1', 'ch_4', 'ch_13', 'ch_52') order by column_index`)
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

func uncompressedSegments(t *testing.T, w *Warehouse) int {
	t.Helper()
	var n int
	err := w.db.QueryRow(`select count(*) from pragma_storage_info('term_stats') where column_name = 'click_conc' and segment_type = 'DOUBLE' and lower(compression) = 'uncompressed'`).Scan(&n)
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
