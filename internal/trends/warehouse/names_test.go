package warehouse

import (
	"context"
	"testing"
)

// A list's top brand, category and ASIN (names read by id, cached, the ASIN without its title)
// equal the same names joined in SQL by the CSV export, and a history's products keep their
// titles when the same ASINs were looked up for a list first, and the other way round.
func TestListNamesAgreeWithTheExport(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	importFiles(t, w, "names", seriesFiles(t, 2)...)
	d := dataset(t, w, "names")
	q := ExploreQuery{Sort: "rank", Limit: 1000, Window: 4}
	want := map[string]TermRow{}
	if err := w.ExportTerms(ctx, d, q, func(r TermRow) error { want[r.Term] = r; return nil }); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		page, err := w.Explore(ctx, d, q)
		if err != nil {
			t.Fatal(err)
		}
		withASIN := 0
		for _, r := range page.Rows {
			e := want[r.Term]
			if r.TopASIN != e.TopASIN || r.TopBrand != e.TopBrand || r.TopCategory != e.TopCategory {
				t.Fatalf("%s: %q: list has %q/%q/%q, export %q/%q/%q", when, r.Term, r.TopASIN, r.TopBrand, r.TopCategory, e.TopASIN, e.TopBrand, e.TopCategory)
			}
			if r.TopASIN != "" {
				withASIN++
			}
		}
		if withASIN == 0 || len(page.Rows) != len(want) {
			t.Fatalf("%s: %d rows, %d with an ASIN; the export has %d", when, len(page.Rows), withASIN, len(want))
		}
	}
	titled := func(when string) {
		t.Helper()
		hs, err := w.TermHistories(ctx, d, []string{"paper towels"})
		if err != nil || !hs[0].Found {
			t.Fatalf("%s: %+v, %v", when, hs, err)
		}
		last := hs[0].Points[len(hs[0].Points)-1]
		if len(last.Products) == 0 || last.Products[0].Title == "" {
			t.Fatalf("%s: the history's products lost their titles: %+v", when, last.Products)
		}
	}
	checkASINCodes(t, w)
	check("cold")
	titled("after the list")
	w.names.Purge()
	titled("cold")
	check("after the history")
}
