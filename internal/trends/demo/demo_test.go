package demo

import (
	"context"
	"path/filepath"
	"testing"
	"time"

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
