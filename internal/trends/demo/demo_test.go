package demo

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

func TestDemoIsDeterministicAndRealistic(t *testing.T) {
	size := Size{Terms: 600, Weeks: 60, Seed: 7, End: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}
	a, b := New(size).Week(59), New(size).Week(59)
	for {
		ra, ea := a.Next()
		rb, eb := b.Next()
		if ea != nil || eb != nil {
			if ea != eb {
				t.Fatal("same seed, different lengths")
			}
			break
		}
		if ra.Term != rb.Term || ra.Rank != rb.Rank || ra.Products[0].ASIN != rb.Products[0].ASIN {
			t.Fatalf("same seed, different rows: %+v vs %+v", ra, rb)
		}
	}
	wh, err := warehouse.OpenFile(context.Background(), filepath.Join(t.TempDir(), "d.duckdb"), "512MB")
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	if err := Build(context.Background(), wh, "demo", size, nil); err != nil {
		t.Fatal(err)
	}
	ds, _ := wh.Datasets(context.Background(), "demo")
	if len(ds) != 1 || ds[0].Periods != 60 || ds[0].Latest.Weekday() != time.Sunday {
		t.Fatalf("datasets %+v", ds)
	}
	for _, list := range []string{"risers", "fallers", "new", "breakouts"} {
		p, err := wh.Explore(context.Background(), &ds[0], warehouse.ExploreQuery{List: list, Window: 4, Limit: 5})
		if err != nil || p.Total == 0 {
			t.Errorf("%s: the demo should have some (%v, %v)", list, p, err)
		}
	}
	p, _ := wh.Explore(context.Background(), &ds[0], warehouse.ExploreQuery{Sort: "seasonality", Desc: true, Limit: 3, Window: 4})
	if len(p.Rows) == 0 || p.Rows[0].Seasonality == nil || *p.Rows[0].Seasonality < 0.5 {
		t.Errorf("seasonal terms should repeat year over year: %+v", p.Rows)
	}
}

func TestDirectBuildWritesTheSameModel(t *testing.T) {
	ctx := context.Background()
	size := Size{Terms: 800, Weeks: 60, Seed: 7, End: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}
	wh, err := warehouse.OpenFile(ctx, filepath.Join(t.TempDir(), "d.duckdb"), "512MB")
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	if err := BuildDirect(ctx, wh, "bench", size, nil); err != nil {
		t.Fatal(err)
	}
	if err := BuildDirect(ctx, wh, "bench", size, nil); err == nil {
		t.Fatal("a second build into the same workspace must be refused, not duplicate rows")
	}
	ds, _ := wh.Datasets(ctx, "bench")
	if len(ds) != 1 || ds[0].Periods != 60 {
		t.Fatalf("datasets %+v", ds)
	}
	// Every week's ranks are 1..n without gaps or repeats, and its period record counts them.
	var badWeeks int
	err = wh.DB().QueryRowContext(ctx, `select count(*) from (
		select f.period_idx, count(*) n, count(distinct rank) d, max(rank) m, any_value(p.rows) r
		from fact f join period p using (dataset_id, period_idx) where dataset_id = ? group by f.period_idx)
		where n != d or n != m or n != r`, ds[0].ID).Scan(&badWeeks)
	if err != nil || badWeeks != 0 {
		t.Fatalf("weeks whose ranks are not a permutation: %d (%v)", badWeeks, err)
	}
	for _, list := range []string{"risers", "fallers", "new", "breakouts"} {
		p, err := wh.Explore(ctx, &ds[0], warehouse.ExploreQuery{List: list, Window: 4, Limit: 5})
		if err != nil || p.Total == 0 {
			t.Errorf("%s: the benchmark set should have some (%v, %v)", list, p, err)
		}
	}
	p, _ := wh.Explore(ctx, &ds[0], warehouse.ExploreQuery{Sort: "seasonality", Desc: true, Limit: 3, Window: 4})
	if len(p.Rows) == 0 || p.Rows[0].Seasonality == nil || *p.Rows[0].Seasonality < 0.5 {
		t.Errorf("seasonal terms should repeat year over year: %+v", p.Rows)
	}
	// The top term's history names its products with shares that add up to at most 85%.
	h, err := wh.TermHistories(ctx, &ds[0], []string{p.Rows[0].Term})
	if err != nil || !h[0].Found || len(h[0].Points) != 60 {
		t.Fatalf("history %+v %v", h, err)
	}
	last := h[0].Points[59]
	var sum float64
	for _, pr := range last.Products {
		sum += *pr.ClickShare
	}
	if len(last.Products) == 0 || last.Products[0].ASIN == "" || len(last.Brands) == 0 || sum > 0.8501 {
		t.Errorf("latest point %+v (click shares sum %.4f)", last, sum)
	}
}

// The generator's real-format files parse back to the generator's rows, in both layouts.
func TestWrittenFilesParseBackToTheSameRows(t *testing.T) {
	size := Size{Terms: 500, Weeks: 3, Seed: 9, End: time.Date(2026, 4, 12, 0, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	files := map[string]func(io.Writer, warehouse.RowSource) error{"US_Top_Search_Terms_Simple_Week_2026_04_11.csv": WriteTSTCSV, "week.json": WriteSPAPI}
	for name, write := range files {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := write(f, New(size).Week(2)); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for name := range files {
		srcs, err := report.Open(filepath.Join(dir, name), report.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := New(size).Week(2)
		if got := srcs[0].Meta().Period; !got.Start.Equal(want.Meta().Period.Start) || got.Kind != report.Week {
			t.Errorf("%s: period %+v, want %+v", name, got, want.Meta().Period)
		}
		n := 0
		for {
			got, err := srcs[0].Next()
			exp, expErr := want.Next()
			if errors.Is(err, io.EOF) || errors.Is(expErr, io.EOF) {
				if !errors.Is(err, io.EOF) || !errors.Is(expErr, io.EOF) {
					t.Fatalf("%s: lengths differ after %d rows (%v, %v)", name, n, err, expErr)
				}
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			n++
			if got.Term != exp.Term || got.Rank != exp.Rank || got.Products[0].ASIN != exp.Products[0].ASIN ||
				math.Abs(float64(got.Products[0].ClickShare-exp.Products[0].ClickShare)) > 0.0001 || got.Products[2].ASIN != exp.Products[2].ASIN {
				t.Fatalf("%s row %d: got %+v, want %+v", name, n, got, exp)
			}
		}
		srcs[0].Close()
		if n < 400 {
			t.Errorf("%s: only %d rows", name, n)
		}
	}
}
