package warehouse

import (
	"context"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// dictionaryCounts counts what an import writes: facts, periods, measures, and the term, ASIN
// and brand dictionaries with their largest ids.
func dictionaryCounts(t *testing.T, w *Warehouse) [8]int {
	t.Helper()
	var c [8]int
	err := w.db.QueryRow(`select (select count(*) from fact), (select count(*) from period), (select count(*) from term_stats),
		(select count(*) from term), (select coalesce(max(id), 0) from term), (select count(*) from asin),
		(select coalesce(max(id), 0) from asin), (select count(*) from brand)`).
		Scan(&c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7])
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// An import builds the period's rows and numbers its new terms and ASINs on its connection
// before its transaction (buildPeriodRows). When it then fails inside the transaction, the
// store is as it was (no fact, period, measure, term, ASIN or brand of it), its connection
// keeps no temporary table, and importing the same report again numbers the new terms and
// ASINs on from the dictionary as it was.
func TestImportFailingInItsTransactionLeavesNothing(t *testing.T) {
	w := openTemp(t)
	w.db.SetMaxOpenConns(1) // the connection the import used is the one the checks read
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}))
	w.WaitBackground()
	before := dictionaryCounts(t, w)

	next := week(1, map[string]int{"a": 2, "c": 1, "d": 3})
	for i := range next.rows {
		next.rows[i].Products[2] = report.Product{ASIN: "B0NEW0000" + next.rows[i].Term, Title: "New " + next.rows[i].Term,
			ClickShare: 0.1, ConversionShare: report.NoShare}
		next.rows[i].Brands[1] = "Brand " + next.rows[i].Term
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.OnStep(func(step string) {
		if step == StepLoaded { // the transaction has written the facts; the measures come next
			cancel()
		}
	})
	if _, err := w.Import(ctx, next, ImportOptions{Workspace: "ws", ImportedBy: "t"}); err == nil {
		t.Fatal("the cancelled import succeeded")
	}
	w.OnStep(nil)
	if after := dictionaryCounts(t, w); after != before {
		t.Fatalf("the failed import left traces (facts, periods, measures, terms, max term id, asins, max asin id, brands): %v -> %v", before, after)
	}
	var temps int
	if err := w.db.QueryRow(`select count(*) from duckdb_tables() where temporary`).Scan(&temps); err != nil || temps != 0 {
		t.Fatalf("%d temporary tables left on the import's connection (%v)", temps, err)
	}

	next.i = 0
	load(t, w, "ws", next)
	after := dictionaryCounts(t, w)
	if after[3] != before[3]+2 || after[4] != before[4]+2 || after[5] != before[5]+3 || after[6] != before[6]+3 || after[7] != before[7]+3 {
		t.Fatalf("after the import again (terms, max id, asins, max id, brands): %v -> %v", before, after)
	}
	var titled int
	if err := w.db.QueryRow(`select count(*) from asin where asin like 'B0NEW0000%' and title = 'New ' || substr(asin, 10)`).Scan(&titled); err != nil || titled != 3 {
		t.Fatalf("%d new ASINs with their titles (%v)", titled, err)
	}
}
