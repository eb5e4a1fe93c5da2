package warehouse

import (
	"context"
	"testing"
)

func TestImportSeries(t *testing.T) {
	w := openTemp(t)
	rec := importFiles(t, w, "ws1", seriesFiles(t, 8)...)
	if rec.Rows < 90 || rec.DeepestRank < 100000 || rec.Period.String() != "week 2026-04-19..2026-04-25" {
		t.Fatalf("record %+v", rec)
	}
	var n int
	w.db.QueryRow(`select count(*) from term_stats`).Scan(&n)
	if n != rec.Rows {
		t.Errorf("term_stats has %d rows, latest period %d", n, rec.Rows)
	}
	rows, _ := w.db.QueryContext(context.Background(), `select term, rank, rank_4, ch_4, is_new, breakout, spark::varchar from term_stats where term in ('yoga mat','snow shovel','moss bear plush') order by term`)
	defer rows.Close()
	for rows.Next() {
		var term, spark string
		var rank int
		var r4 *int
		var ch4 *float64
		var isNew, breakout bool
		rows.Scan(&term, &rank, &r4, &ch4, &isNew, &breakout, &spark)
		t.Logf("%s rank %d r4 %v ch4 %v new %v breakout %v spark %s", term, rank, deref(r4), derefF(ch4), isNew, breakout, spark)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
func derefF(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
