package warehouse

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// The explore list's product, brand and category filters keep the terms where the product
// (brand, category) is one of the top 3 of the period the measures are of, whichever slot it
// holds and however it is cased, in the page, its total and the export; a category matches the
// department too; a name no report holds matches nothing.
func TestExploreFilters(t *testing.T) {
	w := openTemp(t)
	const code = "B0FILTER01" // week() gives every term the brand Acme in slot 1
	// withProduct builds week n, where the product, the brand Zephyr and the category Garden
	// are in slot slots[term] (1-3) of those terms, and echo's department is Garden.
	withProduct := func(n int, slots map[string]int) *memSource {
		src := week(n, map[string]int{"alpha": 1, "bravo": 2, "charlie": 3, "delta": 4, "echo": 5})
		for i := range src.rows {
			r := &src.rows[i]
			r.Products[2] = report.Product{ASIN: "B0OTHER003", ClickShare: 0.01, ConversionShare: report.NoShare}
			r.Categories = [3]string{"Home", "Toys"}
			if k := slots[r.Term]; k > 0 {
				r.Products[k-1].ASIN = code
				r.Brands[k-1], r.Categories[k-1] = "Zephyr", "Garden"
			}
			if r.Term == "echo" {
				r.Department = "garden"
			}
		}
		return src
	}
	load(t, w, "ws", withProduct(0, map[string]int{"alpha": 2, "echo": 1}))
	load(t, w, "ws", withProduct(1, map[string]int{"bravo": 1, "charlie": 2, "delta": 3}))
	d := dataset(t, w, "ws")
	ctx := context.Background()
	asked := func(q ExploreQuery) []string {
		t.Helper()
		page, err := w.Explore(ctx, d, q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range page.Rows {
			got = append(got, r.Term)
		}
		if page.Total != len(got) {
			t.Errorf("total %d for %d rows", page.Total, len(got))
		}
		var exported []string
		if err := w.ExportTerms(ctx, d, q, func(r TermRow) error { exported = append(exported, r.Term); return nil }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(exported, got) {
			t.Errorf("export %v, page %v", exported, got)
		}
		sort.Strings(got)
		return got
	}
	for _, c := range []struct {
		q    ExploreQuery
		want []string
	}{
		{ExploreQuery{ASIN: code}, []string{"bravo", "charlie", "delta"}},
		{ExploreQuery{ASIN: "b0filter01"}, []string{"bravo", "charlie", "delta"}},
		{ExploreQuery{ASIN: code, At: week0}, []string{"alpha", "echo"}}, // the first week's top 3
		{ExploreQuery{ASIN: code, MaxRank: 3}, []string{"bravo", "charlie"}},
		{ExploreQuery{ASIN: "B0OTHER003"}, []string{"alpha", "bravo", "charlie", "echo"}}, // delta holds the product there
		{ExploreQuery{ASIN: "B0NOSUCHAS"}, nil},
		{ExploreQuery{Brand: "zephyr"}, []string{"bravo", "charlie", "delta"}},
		{ExploreQuery{Brand: "Zephyr", At: week0}, []string{"alpha", "echo"}},
		{ExploreQuery{Brand: "Acme"}, []string{"alpha", "charlie", "delta", "echo"}}, // bravo's slot 1 is Zephyr
		{ExploreQuery{Brand: "Nobody"}, nil},
		{ExploreQuery{Category: "GARDEN"}, []string{"bravo", "charlie", "delta", "echo"}}, // echo by its department
		{ExploreQuery{Category: "Garden", At: week0}, []string{"alpha", "echo"}},
		{ExploreQuery{Category: "Toys"}, []string{"alpha", "bravo", "delta", "echo"}}, // charlie's slot 2 is Garden
		{ExploreQuery{Brand: "Zephyr", Category: "Garden", ASIN: code, MinRank: 3}, []string{"charlie", "delta"}},
	} {
		c.q.Sort, c.q.Window, c.q.Limit = "term", 1, MaxPage
		if got := asked(c.q); !slices.Equal(got, c.want) {
			t.Errorf("%+v: got %v, want %v", c.q, got, c.want)
		}
	}
}
