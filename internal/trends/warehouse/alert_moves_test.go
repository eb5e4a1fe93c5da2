package warehouse

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// The alert questions read two periods in bulk; their answers must agree with the term page's
// and product and brand pages' answers for the same periods.
func TestAlertQuestionsAgreeWithThePages(t *testing.T) {
	w := openTemp(t)
	ctx := context.Background()
	rec := importFiles(t, w, "ws", seriesFiles(t, 8)...)
	d, err := w.DatasetByID(ctx, "ws", rec.DatasetID)
	if err != nil {
		t.Fatal(err)
	}
	cur := rec.Period.Start
	prev := cur.AddDate(0, 0, -7)

	terms := []string{"yoga mat", "paper towels", "wireless earbuds", "air fryer", "no such term"}
	pairs, err := w.TermPairs(ctx, d, terms, prev, cur)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := w.TermHistories(ctx, d, terms)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 4 {
		t.Fatalf("pairs for %d terms, want 4 (one is unknown): %+v", len(pairs), pairs)
	}
	for i, p := range pairs {
		h := hist[i]
		if p.Term != h.Term {
			t.Fatalf("pair %d is %q, history %q", i, p.Term, h.Term)
		}
		for k, start := range []time.Time{prev, cur} {
			pt := pointAtStart(h.Points, start)
			if rank := derefOr(pt.Rank, 0); rank != p.Rank[k] {
				t.Errorf("%s at %s: rank %d, history says %d", p.Term, start.Format(time.DateOnly), p.Rank[k], rank)
			}
			var want, got []string
			for _, x := range pt.Products {
				want = append(want, x.ASIN+" "+x.Title)
			}
			for _, x := range p.Products[k] {
				got = append(got, x.ASIN+" "+x.Title)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s at %s: products %q, history says %q", p.Term, start.Format(time.DateOnly), got, want)
			}
		}
	}

	// Top-3 entries and exits of a product and a brand, against their pages' histories.
	for _, c := range []struct{ column, key string }{{"asin", "B0LGVUK6VO"}, {"brand", "driftwood & co"}} {
		got, err := w.SlotChanges(ctx, d, c.column, []string{c.key}, prev, cur, 1000)
		if err != nil {
			t.Fatal(err)
		}
		var page *Presence
		if c.column == "asin" {
			page, err = w.ProductTerms(ctx, d, c.key, 1000)
		} else {
			page, err = w.BrandTerms(ctx, d, c.key, 1000)
		}
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{} // term -> entered
		for _, ts := range page.Terms {
			var before, now bool
			for _, pt := range ts.Points {
				before = before || pt.Start.Equal(prev)
				now = now || pt.Start.Equal(cur)
			}
			if before != now {
				want[ts.Term] = now
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s %s: the samples hold no top-3 change to compare", c.column, c.key)
		}
		if len(got) != len(want) {
			t.Errorf("%s %s: %d changes, pages say %d: %+v vs %v", c.column, c.key, len(got), len(want), got, want)
		}
		for _, s := range got {
			if entered, ok := want[s.Term]; !ok || entered != s.Entered || !strings.EqualFold(s.Key, page.Key) {
				t.Errorf("%s %s: change %+v, pages say %v (key %q)", c.column, c.key, s, want, page.Key)
			}
		}
		if len(got) > 1 {
			one, err := w.SlotChanges(ctx, d, c.column, []string{c.key}, prev, cur, 1)
			if err != nil || len(one) != 1 || one[0] != got[0] {
				t.Errorf("limit 1: %+v %v, want the best-ranked %+v", one, err, got[0])
			}
		}
	}

	// Breakouts per phrase, against explore's breakouts list.
	phrases := []string{"a", "e"}
	found, err := w.BreakoutsContaining(ctx, d, phrases, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, ph := range phrases {
		page, err := w.Explore(ctx, d, ExploreQuery{Search: ph, List: "breakouts", Window: 4, Sort: "rank", Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, b := range found {
			if b.Phrase == ph {
				got = append(got, b.Term)
			}
		}
		for _, r := range page.Rows {
			want = append(want, r.Term)
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("breakouts containing %q: %q, explore says %q", ph, got, want)
		}
	}
}

func pointAtStart(points []HistoryPoint, start time.Time) HistoryPoint {
	for _, p := range points {
		if p.Start.Equal(start) {
			return p
		}
	}
	return HistoryPoint{}
}

func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
