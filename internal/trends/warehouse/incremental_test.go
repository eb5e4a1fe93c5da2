package warehouse

import (
	"context"
	"fmt"
	"math/rand/v2"

	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// churnWeek ranks 60 terms in week n: each term is absent in some weeks (so sparks have holes
// and terms come back), and ranks move from week to week.
func churnWeek(n int, rng *rand.Rand) *memSource {
	ranks := map[string]int{}
	for i := range 60 {
		if rng.IntN(5) == 0 {
			continue
		}
		ranks[fmt.Sprintf("term %02d", i)] = 1 + rng.IntN(5000)
	}
	return week(n, ranks)
}

// statsSnapshot is term_stats of one dataset as text, every column.
func statsSnapshot(t *testing.T, w *Warehouse, ds int) map[string]string {
	t.Helper()
	rows, err := w.db.Query(`select term, s::varchar from (select * exclude (dataset_id) from term_stats where dataset_id = ?) s`, ds)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var term, all string
		if err := rows.Scan(&term, &all); err != nil {
			t.Fatal(err)
		}
		out[term] = all
	}
	return out
}

// matchesFullRebuild fails unless the measures of workspace ws's dataset are exactly what a
// full recomputation gives; it leaves the recomputed ones.
func matchesFullRebuild(t *testing.T, w *Warehouse, ws, step string) {
	t.Helper()
	ds, err := w.Datasets(context.Background(), ws)
	if err != nil || len(ds) != 1 {
		t.Fatalf("%s: datasets %v %v", step, ds, err)
	}
	var basis int
	if err := w.db.QueryRow(`select period_idx from stats_basis where dataset_id = ?`, ds[0].ID).Scan(&basis); err != nil {
		t.Fatalf("%s: no stats basis: %v", step, err)
	}
	incremental := statsSnapshot(t, w, ds[0].ID)
	if err := w.RebuildStats(context.Background(), ds[0].ID); err != nil {
		t.Fatal(err)
	}
	full := statsSnapshot(t, w, ds[0].ID)
	if len(full) == 0 || len(full) != len(incremental) {
		t.Fatalf("%s: %d rows incrementally, %d in full", step, len(incremental), len(full))
	}
	for term, want := range full {
		if got := incremental[term]; got != want {
			t.Fatalf("%s: %s\n incremental %s\n full        %s", step, term, got, want)
		}
	}
}

// An import of the newest period builds on the stored sparks; the result must be exactly what
// a full recomputation gives, after new weeks, a replaced latest week, a gap, and a backfill.
func TestIncrementalMeasuresMatchAFullRebuild(t *testing.T) {
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(7, 8))
	check := func(step string) {
		t.Helper()
		w.WaitBackground() // RebuildStats and the background job take turns; either order is valid
		matchesFullRebuild(t, w, "inc", step)
	}
	// 20 weeks one after another: weeks 14+ have a 13th period back, every import builds on
	// the one before. The full rebuild in check() also sets the basis, so the next import
	// builds on it again.
	for n := range 20 {
		load(t, w, "inc", churnWeek(n, rng))
		if n == 0 || n%4 == 3 {
			check(fmt.Sprintf("week %d", n))
		}
	}
	load(t, w, "inc", churnWeek(19, rng)) // the latest week replaced
	check("replaced latest")
	load(t, w, "inc", churnWeek(21, rng)) // a gap at week 20
	check("after a gap")
	load(t, w, "inc", churnWeek(20, rng)) // the gap filled: an older period, so a full rebuild
	check("backfill")
	load(t, w, "inc", churnWeek(22, rng))
	check("after the backfill")
}

// loadPrepared imports src into workspace ws and fails, saying why, unless its measures came
// from the table the background job (or a rebuild) prepared.
func loadPrepared(t *testing.T, w *Warehouse, ws string, src *memSource, why string) {
	t.Helper()
	used := nextStatsUsed.Load()
	load(t, w, ws, src)
	if nextStatsUsed.Load() != used+1 {
		t.Fatal(why)
	}
}

// Next week's measures from the table the background job prepared after the previous import
// (next_stats.go) are exactly what a full recomputation gives, over more than a year, so the
// year-ago ranks and coming-up count too; and a replaced week, which the prepared table does
// not describe, still comes out right.
func TestPreparedMeasuresMatchAFullRebuild(t *testing.T) {
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(9, 10))
	used := nextStatsUsed.Load()
	for n := range 60 {
		load(t, w, "prep", churnWeek(n, rng))
		w.WaitBackground() // the prepared table is ready before the next import
		if n == 12 || n == 52 || n == 59 {
			matchesFullRebuild(t, w, "prep", fmt.Sprintf("week %d", n))
		}
	}
	if got := nextStatsUsed.Load() - used; got != 59 {
		t.Errorf("%d of 59 imports used the prepared table", got)
	}
	var yearAgo, comingUp int
	if err := w.db.QueryRow(`select count(rank_52), count(coming_up) from term_stats`).Scan(&yearAgo, &comingUp); err != nil || yearAgo == 0 || comingUp == 0 {
		t.Fatalf("the test never reaches the year-ago measures: %d, %d, %v", yearAgo, comingUp, err)
	}
	used = nextStatsUsed.Load()
	load(t, w, "prep", churnWeek(59, rng)) // the latest week replaced
	if nextStatsUsed.Load() != used {
		t.Error("a replacement used the table prepared for the next week")
	}
	w.WaitBackground() // seasonality catches up with the replaced week in the background
	matchesFullRebuild(t, w, "prep", "replaced latest")
}

// A bulk load (SkipStats, then one RebuildStats) leaves next week's inputs prepared, as the
// background job does after an import, so the next import uses them and comes out right.
func TestRebuildPreparesTheNextImport(t *testing.T) {
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(11, 12))
	for n := range 20 {
		if _, err := w.Import(context.Background(), churnWeek(n, rng), ImportOptions{Workspace: "bulk", ImportedBy: "t", SkipStats: true}); err != nil {
			t.Fatal(err)
		}
	}
	// The background job after each import prepares them too; the benchmark generator writes
	// its tables directly, with no job, which forgetting them here stands for.
	w.WaitBackground()
	if _, err := w.db.Exec(`delete from stats_next_basis`); err != nil {
		t.Fatal(err)
	}
	ds := dataset(t, w, "bulk")
	if err := w.RebuildStats(context.Background(), ds.ID); err != nil {
		t.Fatal(err)
	}
	loadPrepared(t, w, "bulk", churnWeek(20, rng), "the first import after a rebuild did not use the prepared inputs")
	w.WaitBackground()
	matchesFullRebuild(t, w, "bulk", "after the bulk load")
}

// After an import whose measures come from the prepared table, and after one computed the
// usual way, term_keys holds every term of the dictionary once, with its id: the import
// appends its new terms' keys, and the background job after it sorts them in. Each term is
// found by its string, including one that comes back after a week away.
func TestTermKeysFollowTheDictionary(t *testing.T) {
	w := openTemp(t)
	terms := func(prefix string, n int, ranks map[string]int) map[string]int {
		for i := range n {
			ranks[fmt.Sprintf("%s%d", prefix, i)] = len(ranks) + 1
		}
		return ranks
	}
	load(t, w, "keys", week(0, terms("m", 9, map[string]int{})))
	checkTermKeys(t, w, true) // the first import's keys are all new, appended in order
	w.WaitBackground()
	load(t, w, "keys", week(1, terms("a", 9, terms("m", 8, map[string]int{})))) // m8 dropped, a's new
	w.WaitBackground()
	checkTermKeys(t, w, true)
	// the m's dropped, n's new; m8 back
	loadPrepared(t, w, "keys", week(2, terms("n", 3, terms("a", 9, map[string]int{"m8": 1}))), "the import did not use the prepared table")
	checkTermKeys(t, w, false)
	d := dataset(t, w, "keys")
	for term, want := range map[string][]int{"a3": {0, 12, 5}, "n2": {0, 0, 13}, "m8": {9, 0, 1}} {
		if got := ranksOf(t, w, d, term); !equalInts(got, want) {
			t.Errorf("%s: ranks %v, want %v", term, got, want)
		}
	}
	w.WaitBackground()
	checkTermKeys(t, w, true)
}

// checkTermKeys fails unless term_keys holds exactly the dictionary's terms, each once with
// its id and its hash, and, when sorted, sorted by hash within each dataset.
func checkTermKeys(t *testing.T, w *Warehouse, sorted bool) {
	t.Helper()
	var terms, keys, wrong, unsorted int
	err := w.db.QueryRow(`select (select count(*) from term), (select count(*) from term_keys),
		(select count(*) from term d full join term_keys k on k.dataset_id = d.dataset_id and k.term_id = d.id
			where k.term_id is null or d.id is null or k.term_hash <> `+termHash("d.term")+`),
		(select count(*) from (select dataset_id, term_hash, lag(term_hash) over (partition by dataset_id order by rowid) prev from term_keys)
			where term_hash < prev)`).Scan(&terms, &keys, &wrong, &unsorted)
	if err != nil || terms == 0 || keys != terms || wrong > 0 || (sorted && unsorted > 0) {
		t.Fatalf("term keys: %d for %d terms, %d wrong, %d out of order, %v", keys, terms, wrong, unsorted, err)
	}
}

// Every overview list, chosen and counted at import, is the same list asked live, for both
// windows: the same total and the same terms in the same order.
func TestOverviewAgreesWithExplore(t *testing.T) {
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(15, 16))
	for n := range 57 { // over a year, so coming-up has terms too
		load(t, w, "ov", churnWeek(n, rng))
	}
	d := dataset(t, w, "ov")
	nonEmpty := 0
	for _, window := range []int{1, 4} {
		ov, err := w.Overview(context.Background(), d, window)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range OverviewLists(window) {
			q := l.Query
			q.Limit = OverviewSize
			live, err := w.Explore(context.Background(), d, q)
			if err != nil {
				t.Fatal(err)
			}
			got := ov[l.Name]
			if got.Total != live.Total || len(got.Rows) != len(live.Rows) {
				t.Fatalf("window %d, %s: overview total %d, %d rows; live %d, %d rows", window, l.Name, got.Total, len(got.Rows), live.Total, len(live.Rows))
			}
			for i := range got.Rows {
				if got.Rows[i].Term != live.Rows[i].Term {
					t.Fatalf("window %d, %s, row %d: %q, live %q", window, l.Name, i, got.Rows[i].Term, live.Rows[i].Term)
				}
			}
			if live.Total > 0 {
				nonEmpty++
			}
		}
	}
	if nonEmpty < 6 {
		t.Fatalf("only %d of the 10 lists hold terms: the test checks too little", nonEmpty)
	}
}

// Every product cell of a week imported after another gets the dictionary's id for its ASIN,
// whether it kept its slot, moved to another, came from another term, or is new, and no ASIN
// is added twice.
func TestASINsGetTheDictionaryIDs(t *testing.T) {
	w := openTemp(t)
	row := productRow
	first := week(0, nil)
	first.rows = []report.Row{row(3, "kept", 1, "B0A", "B0B", "B0C"), row(4, "moved", 2, "B0D", "B0E", "B0F"),
		row(5, "changed", 3, "B0G", "B0H"), row(6, "gone", 4, "B0X")}
	load(t, w, "ws", first)
	w.WaitBackground()
	second := week(1, nil)
	second.rows = []report.Row{row(3, "kept", 1, "B0A", "B0B", "B0C"), row(4, "moved", 2, "B0F", "B0D", "B0E"),
		row(5, "changed", 3, "B0X", "B0NEW1", "B0G"), row(6, "fresh", 4, "B0NEW2", "B0A", "B0NEW1")}
	loadPrepared(t, w, "ws", second, "the second import did not use the prepared tables")
	var n, distinct int
	if err := w.db.QueryRow(`select count(*), count(distinct asin) from asin`).Scan(&n, &distinct); err != nil || n != 11 || distinct != 11 {
		t.Fatalf("the dictionary holds %d ASINs, %d distinct, want 11 (%v)", n, distinct, err)
	}
	// Each cell's stored id names the ASIN the report gave it.
	var wrong int
	err := w.db.QueryRow(`select count(*) from (
		select f.term_id, k.slot, case k.slot when 1 then f.asin1 when 2 then f.asin2 else f.asin3 end id from fact f, (select unnest([1, 2, 3]) slot) k
		where f.period_idx = (select max(period_idx) from fact)) c
		join term t on t.id = c.term_id join asin a on a.id = c.id
		where a.asin <> case t.term || c.slot
			when 'kept1' then 'B0A' when 'kept2' then 'B0B' when 'kept3' then 'B0C'
			when 'moved1' then 'B0F' when 'moved2' then 'B0D' when 'moved3' then 'B0E'
			when 'changed1' then 'B0X' when 'changed2' then 'B0NEW1' when 'changed3' then 'B0G'
			when 'fresh1' then 'B0NEW2' when 'fresh2' then 'B0A' when 'fresh3' then 'B0NEW1' end`).Scan(&wrong)
	if err != nil || wrong != 0 {
		t.Fatalf("%d cells hold another ASIN's id (%v)", wrong, err)
	}
	var cells int
	if err := w.db.QueryRow(`select count(asin1) + count(asin2) + count(asin3) from fact where period_idx = (select max(period_idx) from fact)`).Scan(&cells); err != nil || cells != 12 {
		t.Fatalf("the second week holds %d product cells, want 12 (%v)", cells, err)
	}
	var title string
	if err := w.db.QueryRow(`select title from asin where asin = 'B0NEW1'`).Scan(&title); err != nil || title != "title of B0NEW1" {
		t.Fatalf("new ASIN's title %q (%v)", title, err)
	}
}
