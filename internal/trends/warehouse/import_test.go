package warehouse

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
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
	rows, _ := w.db.QueryContext(context.Background(), `select term, rank, rank_4, log2(rank_4 / rank), is_new, breakout, spark::varchar from term_stats where term in ('yoga mat','snow shovel','moss bear plush') order by term`)
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

// Every cell of every file comes back in its own period and slot: products (ASIN, title,
// shares), brands and categories, whether the ASIN was new in that import or already known.
// With small ASIN slices, each import looks its ASINs up in several.
func TestEveryCellComesBackInItsSlot(t *testing.T) {
	for _, perSlice := range []int{cellsPerSlice, 40} {
		t.Run(fmt.Sprintf("slice=%d", perSlice), func(t *testing.T) {
			saved := cellsPerSlice
			cellsPerSlice = perSlice
			defer func() { cellsPerSlice = saved }()
			everyCellComesBack(t)
		})
	}
}

func everyCellComesBack(t *testing.T) {
	w := openTemp(t)
	files := seriesFiles(t, 8)
	importFiles(t, w, "ws1", files...)
	ds, err := w.Datasets(context.Background(), "ws1")
	if err != nil || len(ds) != 1 {
		t.Fatalf("datasets %v %v", ds, err)
	}
	checked := 0
	for _, f := range files {
		srcs, err := report.Open(f, report.Options{})
		if err != nil {
			t.Fatal(err)
		}
		start := srcs[0].Meta().Period.Start
		for {
			row, err := srcs[0].Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			h, err := w.TermHistories(context.Background(), &ds[0], []string{row.Term})
			if err != nil || len(h) != 1 {
				t.Fatalf("history of %q: %v", row.Term, err)
			}
			var got *HistoryPoint
			for i := range h[0].Points {
				if h[0].Points[i].Start.Equal(start) {
					got = &h[0].Points[i]
				}
			}
			if got == nil || got.Rank == nil || *got.Rank != int(row.Rank) {
				t.Fatalf("%s %q: point %+v, want rank %d", f, row.Term, got, row.Rank)
			}
			var want []string
			for _, p := range row.Products {
				if p.ASIN != "" {
					want = append(want, p.ASIN+"/"+p.Title)
				}
			}
			var have []string
			for _, p := range got.Products {
				have = append(have, p.ASIN+"/"+p.Title)
			}
			if strings.Join(have, "|") != strings.Join(want, "|") {
				t.Fatalf("%s %q products:\n got %v\nwant %v", f, row.Term, have, want)
			}
			checked++
		}
		srcs[0].Close()
	}
	if checked < 700 {
		t.Fatalf("checked only %d rows", checked)
	}
}

// The ASIN slices of an import split the cells to look up into ranges of about equal size,
// as many as their count asks for, and every cell falls in exactly one of them (an ASIN in two
// slices would get two ids, one in none no id at all).
func TestASINSlicesHoldEachASINOnce(t *testing.T) {
	w := openTemp(t)
	ctx := context.Background()
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `create temp table cells as select i rid, (i % 3 + 1)::tinyint slot,
		case i % 3 when 0 then 'B0' || lpad((i * 7919 % 100000)::varchar, 8, '0') when 1 then 'X' || i else (i % 10)::varchar end a
		from range(50000) t(i)`)
	if err != nil {
		t.Fatal(err)
	}
	bounds, err := asinBounds(ctx, tx, "cells", 12_000)
	if err != nil || len(bounds) != 4 {
		t.Fatalf("bounds %v, %v; want 4 (5 slices of at most ~12,000 of 50,000 cells)", bounds, err)
	}
	sum := 0
	for part := range len(bounds) + 1 {
		cond, args := asinRange("a", bounds, part)
		var n int
		if err := tx.QueryRowContext(ctx, `select count(*) from cells where `+cond, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n < 50000/10 || n > 50000*3/10 {
			t.Errorf("slice %d holds %d of 50000 cells", part, n)
		}
		sum += n
	}
	if sum != 50000 {
		t.Errorf("slices hold %d cells, the report 50000", sum)
	}
	if b, err := asinBounds(ctx, tx, "cells", 50_000); err != nil || len(b) != 0 {
		t.Errorf("cells that fit one slice: bounds %v %v", b, err)
	}
	// Cells of one ASIN have one bound at most, and no cells none.
	tx.ExecContext(ctx, `create temp table one as select i rid, 1::tinyint slot, 'B000000001' a from range(100) t(i)`)
	if b, err := asinBounds(ctx, tx, "one", 10); err != nil || len(b) != 1 {
		t.Errorf("bounds of a one-ASIN report: %v %v", b, err)
	}
	tx.ExecContext(ctx, `create temp table none (rid bigint, slot tinyint, a varchar)`)
	if b, err := asinBounds(ctx, tx, "none", 10); err != nil || len(b) != 0 {
		t.Errorf("bounds of a report without ASINs: %v %v", b, err)
	}
}

// The period record's counts, taken while the rows are staged, are those of the stored rows:
// rows, deepest rank, and terms with 0, 1, 2 and 3 products.
func TestPeriodRecordCountsTheStoredRows(t *testing.T) {
	w := openTemp(t)
	var recs []*PeriodRecord
	for _, f := range seriesFiles(t, 3) {
		recs = append(recs, importFiles(t, w, "ws", f))
	}
	mixed := week(5, nil)
	for products := range 4 {
		for i := range products + 1 { // 1 term with no product, 2 with one, ...
			r := report.Row{Line: len(mixed.rows) + 3, Term: fmt.Sprintf("term %d/%d", products, i), Rank: int32(900 + len(mixed.rows))}
			for k := range products {
				r.Products[k] = report.Product{ASIN: fmt.Sprintf("B0MIX%d%d%03d", products, i, k), ClickShare: report.NoShare, ConversionShare: report.NoShare}
			}
			for k := products; k < 3; k++ {
				r.Products[k] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
			}
			mixed.rows = append(mixed.rows, r)
		}
	}
	recs = append(recs, load(t, w, "ws", mixed))
	if fmt.Sprint(recs[3].Rows, recs[3].DeepestRank, recs[3].TermsWith) != "10 909 [1 2 3 4]" {
		t.Fatalf("mixed week's record %+v", recs[3])
	}
	for _, rec := range recs {
		var c PeriodRecord
		err := w.db.QueryRow(`select count(*), max(rank),
			count(*) filter (where (asin1 is not null)::int + (asin2 is not null)::int + (asin3 is not null)::int = 0), count(*) filter (where (asin1 is not null)::int + (asin2 is not null)::int + (asin3 is not null)::int = 1),
			count(*) filter (where (asin1 is not null)::int + (asin2 is not null)::int + (asin3 is not null)::int = 2), count(*) filter (where (asin1 is not null)::int + (asin2 is not null)::int + (asin3 is not null)::int = 3)
			from fact where dataset_id = ? and period_idx = ?`, rec.DatasetID, periodIndex(rec.Period)).
			Scan(&c.Rows, &c.DeepestRank, &c.TermsWith[0], &c.TermsWith[1], &c.TermsWith[2], &c.TermsWith[3])
		if err != nil || c.Rows != rec.Rows || c.DeepestRank != rec.DeepestRank || c.TermsWith != rec.TermsWith {
			t.Errorf("%s: record %d rows, deepest %d, %v; stored %d, %d, %v (%v)", rec.Period, rec.Rows, rec.DeepestRank, rec.TermsWith, c.Rows, c.DeepestRank, c.TermsWith, err)
		}
	}
}

// An import commits with DuckDB's checkpoint threshold raised (commitDeferringCheckpoint) and
// sets it back afterwards; what it committed survives a reopen.
func TestImportSetsTheCheckpointThresholdBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w := openAt(t, path)
	threshold := func() string {
		t.Helper()
		var v string
		if err := w.db.QueryRowContext(ctx, `select current_setting('checkpoint_threshold')`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := threshold()
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}))
	if got := threshold(); got != before {
		t.Fatalf("checkpoint threshold after an import: %s, want %s", got, before)
	}
	closeChecked(t, w)
	w = openAt(t, path)
	defer closeChecked(t, w)
	if got := ranksOf(t, w, dataset(t, w, "ws"), "b"); !equalInts(got, []int{2}) {
		t.Fatalf("b's ranks after a reopen: %v", got)
	}
}
