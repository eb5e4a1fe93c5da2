package warehouse

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
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

// An import of the newest period builds on the stored sparks; the result must be exactly what
// a full recomputation gives, after new weeks, a replaced latest week, a gap, and a backfill.
func TestIncrementalMeasuresMatchAFullRebuild(t *testing.T) {
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(7, 8))
	check := func(step string) {
		t.Helper()
		ds, err := w.Datasets(context.Background(), "inc")
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
