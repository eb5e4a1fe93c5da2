package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// withThirdProduct sets every row's third product of a week.
func withThirdProduct(src *memSource, asin, title string) *memSource {
	for i := range src.rows {
		src.rows[i].Products[2] = report.Product{ASIN: asin, Title: title, ClickShare: 0.0625, ConversionShare: report.NoShare}
	}
	return src
}

// productsOf reads the products a term's history names in its last period, names uncached.
func productsOf(t *testing.T, w *Warehouse, d *Dataset, term string) []ProductShare {
	t.Helper()
	w.names.Purge()
	h, err := w.TermHistories(context.Background(), d, []string{term})
	if err != nil {
		t.Fatal(err)
	}
	return h[0].Points[len(h[0].Points)-1].Products
}

func wantProducts(t *testing.T, got []ProductShare, want ...[2]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d products %+v, want %v", len(got), got, want)
	}
	for i, p := range got {
		if p.ASIN != want[i][0] || p.Title != want[i][1] {
			t.Fatalf("product %d is %s %q, want %s %q", i+1, p.ASIN, p.Title, want[i][0], want[i][1])
		}
	}
}

// A rebuild of the copy writes each term's products with their codes and titles, history names
// them from there, and a product new since the rebuild (in an appended period) is named from
// the dictionary.
func TestHistoryNamesProductsFromTheProductsTable(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	load(t, w, "ws", withThirdProduct(week(0, map[string]int{"a": 1, "b": 2}), "B0THIRD001", "Third"),
		week(1, map[string]int{"a": 2, "b": 1}))
	d := dataset(t, w, "ws")
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	rows, err := w.db.QueryContext(ctx, `select t.term, p.asin, coalesce(p.title, '') from `+productsTable(d.ID)+` p
		join term t on t.dataset_id = ? and t.id = p.term_id order by t.term, p.asin`, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []string
	for rows.Next() {
		var term, asin, title string
		if err := rows.Scan(&term, &asin, &title); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, term+" "+asin+" "+title)
	}
	rows.Close()
	want := []string{"a B0TEST0001 Test", "a B0TEST0002 ", "a B0THIRD001 Third", "b B0TEST0001 Test", "b B0TEST0002 ", "b B0THIRD001 Third"}
	if fmt.Sprint(pairs) != fmt.Sprint(want) {
		t.Fatalf("products by term %v, want %v", pairs, want)
	}

	// History names them from the table, not from the dictionary.
	var termID int64
	if err := w.db.QueryRowContext(ctx, `select id from term where dataset_id = ? and term = 'a'`, d.ID).Scan(&termID); err != nil {
		t.Fatal(err)
	}
	var third int64
	if err := w.db.QueryRowContext(ctx, `select id from asin where asin = 'B0THIRD001'`).Scan(&third); err != nil {
		t.Fatal(err)
	}
	w.names.Purge()
	asins := map[int64]bool{third: true}
	named, err := w.termProductNames(ctx, d.ID, []string{strconv.FormatInt(termID, 10)}, asins)
	if err != nil || named[third] != [2]string{"B0THIRD001", "Third"} || len(asins) != 0 {
		t.Fatalf("named %v (%v), left %v; want B0THIRD001 Third named and none left", named, err, asins)
	}
	wantProducts(t, productsOf(t, w, d, "a"), [2]string{"B0TEST0001", "Test"}, [2]string{"B0TEST0002", ""})

	// A product first seen after the rebuild: appended to the copy, not in the table.
	load(t, w, "ws", withThirdProduct(week(2, map[string]int{"a": 3}), "B0FRESH001", "Fresh"))
	w.WaitBackground()
	if outside, appended, err := copyCoverage(ctx, w.db, d.ID); err != nil || outside != 0 || appended != 1 {
		t.Fatalf("periods outside the copy %d, appended %d (%v); want 0 and 1", outside, appended, err)
	}
	wantProducts(t, productsOf(t, w, d, "a"), [2]string{"B0TEST0001", "Test"}, [2]string{"B0TEST0002", ""}, [2]string{"B0FRESH001", "Fresh"})
}

// A copy built before the products table existed has none: history names products from the
// dictionary, and the background job (started for it by ResumeCopies) builds the table.
func TestCopiesWithoutProductsGetThem(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trends.duckdb")
	w := openAt(t, path)
	load(t, w, "ws", withThirdProduct(week(0, map[string]int{"a": 1}), "B0THIRD001", "Third"))
	d := dataset(t, w, "ws")
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.ExecContext(ctx, `drop table `+productsTable(d.ID)); err != nil {
		t.Fatal(err)
	}
	closeChecked(t, w)

	w = openAt(t, path)
	defer closeChecked(t, w)
	if w.products.holds(d.ID) {
		t.Fatal("the reopened store believes the dropped products table is there")
	}
	three := [][2]string{{"B0TEST0001", "Test"}, {"B0TEST0002", ""}, {"B0THIRD001", "Third"}}
	wantProducts(t, productsOf(t, w, d, "a"), three...)
	if err := w.ResumeCopies(ctx); err != nil {
		t.Fatal(err)
	}
	w.WaitBackground()
	var n int
	if err := w.db.QueryRowContext(ctx, `select count(*) from `+productsTable(d.ID)).Scan(&n); err != nil || n != 3 || !w.products.holds(d.ID) {
		t.Fatalf("after ResumeCopies the products table has %d rows (%v), known %v; want 3, known", n, err, w.products.holds(d.ID))
	}
	wantProducts(t, productsOf(t, w, d, "a"), three...)
}
