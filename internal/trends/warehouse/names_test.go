package warehouse

import (
	"context"
	"fmt"
	"testing"
)

// A list's top brand, category (names read by id, cached) and ASIN (its code stored in
// term_stats) equal the same names joined in SQL by the CSV export, every stored code is the
// dictionary's, and a history's products keep their titles whether a list was read first or not.
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

// A history finds its terms whether they are in the latest period (their ids read from
// term_stats) or only in earlier ones (from the term dictionary), in one request, and says
// which terms the dataset never had.
func TestHistoryFindsTermsAbsentFromTheLatestPeriod(t *testing.T) {
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"kept": 1, "dropped": 2}), week(1, map[string]int{"kept": 3}))
	hs, err := w.TermHistories(context.Background(), dataset(t, w, "ws"), []string{"dropped", "never", "kept"})
	if err != nil || len(hs) != 3 {
		t.Fatalf("%+v, %v", hs, err)
	}
	ranks := func(h TermHistory) []any {
		var out []any
		for _, p := range h.Points {
			out = append(out, deref(p.Rank))
		}
		return out
	}
	if h := hs[0]; !h.Found || fmt.Sprint(ranks(h)) != "[2 <nil>]" {
		t.Errorf("dropped: found %v, ranks %v", h.Found, ranks(h))
	}
	if h := hs[1]; h.Found {
		t.Errorf("never: found")
	}
	if h := hs[2]; !h.Found || fmt.Sprint(ranks(h)) != "[1 3]" {
		t.Errorf("kept: found %v, ranks %v", h.Found, ranks(h))
	}
}

// Terms that share their first 8 bytes (once their key, when term_stats was sorted by term) are
// told apart by the lookup.
func TestHistoryTellsApartTermsSharingAKey(t *testing.T) {
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"wireless earbuds": 1, "wireless earbuds case": 2, "wireless mouse": 3, "wireless": 4}))
	d := dataset(t, w, "ws")
	for term, want := range map[string]int{"wireless earbuds": 1, "wireless earbuds case": 2, "wireless mouse": 3, "wireless": 4} {
		if got := ranksOf(t, w, d, term); len(got) != 1 || got[0] != want {
			t.Errorf("%q: ranks %v, want [%d]", term, got, want)
		}
	}
	if h, err := w.TermHistories(context.Background(), d, []string{"wireless earbud"}); err != nil || h[0].Found {
		t.Errorf("a term sharing the key but not in the dataset: %+v, %v", h, err)
	}
}

// A term whose hash another term shares (made here by rewriting b's hash to a's) is not taken
// for it: looking up a names a's id only, and b is still found (in the dictionary).
func TestTermLookupDropsATermSharingItsHash(t *testing.T) {
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}))
	d := dataset(t, w, "ws")
	if _, err := w.db.Exec(`update term_keys set term_hash = ` + termHash("'a'") + ` where term_id = (select id from term where term = 'b')`); err != nil {
		t.Fatal(err)
	}
	tx, err := beginTx(context.Background(), w.db)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	_, names, err := periodStatesAndTermIDs(context.Background(), tx, d.ID, []string{"a"})
	if err != nil || len(names) != 1 {
		t.Fatalf("ids for a: %v, %v", names, err)
	}
	for _, term := range names {
		if term != "a" {
			t.Fatalf("ids for a: %v", names)
		}
	}
	if got := ranksOf(t, w, d, "b"); !equalInts(got, []int{2}) {
		t.Fatalf("b's ranks: %v", got)
	}
}
