package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/asinindex"
	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// productRow is a report row of term at rank with the given top products (each titled after
// its code).
func productRow(line int, term string, rank int32, asins ...string) report.Row {
	r := report.Row{Line: line, Term: term, Rank: rank}
	for k := range r.Products {
		r.Products[k] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
		if k < len(asins) {
			r.Products[k].ASIN, r.Products[k].Title = asins[k], "title of "+asins[k]
		}
	}
	return r
}

// productWeek is week n holding rows.
func productWeek(n int, rows ...report.Row) *memSource {
	src := week(n, nil)
	src.rows = rows
	return src
}

// checkProducts fails unless the latest period's product cells hold exactly the codes of rows
// (by term and slot), and the dictionary holds each code once.
func checkProducts(t *testing.T, w *Warehouse, rows []report.Row) {
	t.Helper()
	want := map[[2]string]bool{}
	for _, r := range rows {
		for k, p := range r.Products {
			if p.ASIN != "" {
				want[[2]string{r.Term, string(rune('1'+k)) + p.ASIN}] = true
			}
		}
	}
	got, err := queryColumn[string](context.Background(), w.db, `select t.term || '|' || c.slot || a.asin from (
		select f.term_id, k.slot, case k.slot when 1 then f.asin1 when 2 then f.asin2 else f.asin3 end id
		from fact f, (select unnest([1, 2, 3]) slot) k where f.period_idx = (select max(period_idx) from fact)) c
		join term t on t.id = c.term_id join asin a on a.id = c.id`)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		term, cell, _ := cut(g)
		if !want[[2]string{term, cell}] {
			t.Errorf("cell %q is not in the report", g)
		}
		delete(want, [2]string{term, cell})
	}
	if len(want) > 0 {
		t.Errorf("cells missing: %v", want)
	}
	var n, distinct int
	if err := w.db.QueryRow(`select count(*), count(distinct asin) from asin`).Scan(&n, &distinct); err != nil || n != distinct {
		t.Errorf("the dictionary holds %d ASINs, %d distinct (%v)", n, distinct, err)
	}
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '|' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// checkIndexMatchesDictionary fails unless the store's index covers the whole dictionary and
// finds every code Key accepts with its id (ids from 1), and no other.
func checkIndexMatchesDictionary(t *testing.T, w *Warehouse) *asinIndexFor {
	t.Helper()
	ctx := context.Background()
	x := w.openASINIndex(ctx, w.db)
	if x == nil {
		t.Fatal("no usable ASIN index")
	}
	t.Cleanup(x.close)
	rows, err := w.db.QueryContext(ctx, `select id, asin from asin`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var most int64
	indexed, all := 0, 0
	for rows.Next() {
		var id int32
		var code string
		if err := rows.Scan(&id, &code); err != nil {
			t.Fatal(err)
		}
		all++
		most = max(most, int64(id))
		got, found := x.Lookup(code)
		if _, ok := asinindex.Key(code); ok && id > 0 {
			indexed++
			if !found || got != id {
				t.Errorf("index: %q is %d, %v; want %d", code, got, found, id)
			}
		} else if found {
			t.Errorf("index holds %q (id %d), which it must leave out", code, id)
		}
	}
	cov := x.Coverage()
	if cov.MaxID != most || cov.Rows != int64(all) || x.Len() != indexed {
		t.Errorf("index covers %+v with %d codes; the dictionary has %d entries up to %d, %d indexable", cov, x.Len(), all, most, indexed)
	}
	return x
}

// The background job keeps the index in step with the dictionary, building it in chunks.
func TestImportsKeepTheASINIndex(t *testing.T) {
	saved := asinIndexChunk
	asinIndexChunk = 50
	defer func() { asinIndexChunk = saved }()
	w := openTemp(t)
	files := seriesFiles(t, 3)
	importFiles(t, w, "ws", files[:2]...)
	w.WaitBackground()
	if x := checkIndexMatchesDictionary(t, w); x.Len() <= 50 || x.lookUpAfter() != x.Coverage().MaxID {
		t.Fatalf("the index holds %d codes after %d; want more than one chunk, and every code up to it", x.Len(), x.lookUpAfter())
	}
	importFiles(t, w, "ws", files[2])
	w.WaitBackground()
	checkIndexMatchesDictionary(t, w)
}

// An import takes a product's id from the index without asking the dictionary: an index that
// says B0A is B0B's id makes the cell hold B0B. (An index that matches the dictionary is
// trusted; TestASINIndexOfAnotherDictionaryIsNotUsed shows when it is not.)
func TestImportNumbersProductsFromTheIndex(t *testing.T) {
	w := openTemp(t)
	ctx := context.Background()
	load(t, w, "ws", productWeek(0, productRow(3, "t1", 1, "B0A", "B0B")))
	w.WaitBackground()
	ids := map[string]int32{}
	for _, code := range []string{"B0A", "B0B"} {
		var id int32
		if err := w.db.QueryRow(`select id from asin where asin = ?`, code).Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[code] = id
	}
	x := w.openASINIndex(ctx, w.db)
	cov := x.Coverage()
	x.close()
	wrong, _ := asinindex.PairOf("B0A", ids["B0B"])
	right, _ := asinindex.PairOf("B0B", ids["B0B"])
	if err := asinindex.Write(w.asinIndex, nil, []asinindex.Pair{wrong, right}, cov); err != nil {
		t.Fatal(err)
	}
	load(t, w, "ws", productWeek(1, productRow(3, "t2", 1, "B0A")))
	var got string
	err := w.db.QueryRow(`select a.asin from fact f join asin a on a.id = f.asin1 where f.period_idx = (select max(period_idx) from fact)`).Scan(&got)
	if err != nil || got != "B0B" {
		t.Fatalf("the cell holds %q (%v); want the index's B0B", got, err)
	}
}

// An index left behind by the dictionary (it lacks the latest imports' ASINs) still gives every
// cell its ASIN's id: the cells it does not find are looked up among the newer ids. Codes the
// index cannot hold (lowercase, too long) are looked up in the whole dictionary.
func TestStaleASINIndexFindsEveryASIN(t *testing.T) {
	w := openTemp(t)
	ctx := context.Background()
	first := []report.Row{productRow(3, "kept", 1, "B0A", "B0B", "B0C"), productRow(4, "other", 2, "B0D")}
	load(t, w, "ws", productWeek(0, first...))
	w.WaitBackground()
	old, err := os.ReadFile(w.asinIndex)
	if err != nil {
		t.Fatal(err)
	}
	second := []report.Row{productRow(3, "kept", 1, "B0A", "B0NEW1", "b0-lower"), productRow(4, "other", 2, "B0D", "WALMART-1234567890")}
	load(t, w, "ws", productWeek(1, second...))
	w.WaitBackground()
	checkIndexMatchesDictionary(t, w)
	if err := os.WriteFile(w.asinIndex, old, 0o644); err != nil { // back to the first week's index
		t.Fatal(err)
	}
	x := w.openASINIndex(ctx, w.db)
	if x == nil || x.Len() != 4 || x.lookUpAfter() != 4 {
		t.Fatalf("the first week's index: %v; want its 4 codes, used up to id 4", x)
	}
	x.close()
	third := []report.Row{productRow(3, "kept", 1, "B0NEW1", "b0-lower", "B0B"), productRow(4, "other", 2, "WALMART-1234567890", "B0NEW2", "B0D")}
	load(t, w, "ws", productWeek(2, third...))
	checkProducts(t, w, third)
	w.WaitBackground()
	// The index now covers entries it cannot hold, so cells it does not find are looked up in
	// the whole dictionary.
	if x := checkIndexMatchesDictionary(t, w); x.lookUpAfter() != -1 {
		t.Fatalf("lookUpAfter = %d with unindexable codes in the dictionary; want -1", x.lookUpAfter())
	}
	fourth := []report.Row{productRow(3, "kept", 1, "b0-lower", "B0NEW3", "B0A"), productRow(4, "other", 2, "WALMART-1234567890", "B0NEW1")}
	load(t, w, "ws", productWeek(3, fourth...))
	checkProducts(t, w, fourth)
}

// Without an index (lost, or never built), imports look every product up in the dictionary.
func TestImportWithoutASINIndex(t *testing.T) {
	w := openTemp(t)
	first := []report.Row{productRow(3, "kept", 1, "B0A", "B0B", "B0C"), productRow(4, "other", 2, "B0D")}
	load(t, w, "ws", productWeek(0, first...))
	w.WaitBackground()
	if err := os.Remove(w.asinIndex); err != nil {
		t.Fatal(err)
	}
	second := []report.Row{productRow(3, "kept", 1, "B0D", "B0A", "B0NEW"), productRow(4, "new", 2, "B0C")}
	load(t, w, "ws", productWeek(1, second...))
	checkProducts(t, w, second)
	w.WaitBackground()
	checkIndexMatchesDictionary(t, w)
}

// An index built from another store's dictionary, or damaged, is not used, and the background
// job writes the store's own in its place.
func TestASINIndexOfAnotherDictionaryIsNotUsed(t *testing.T) {
	ctx := context.Background()
	other := openTemp(t)
	load(t, other, "ws", productWeek(0, productRow(3, "t", 1, "B0X", "B0Y", "B0Z")))
	other.WaitBackground()
	w := openTemp(t)
	load(t, w, "ws", productWeek(0, productRow(3, "t", 1, "B0A", "B0B", "B0C")))
	w.WaitBackground()
	for what, spoil := range map[string]func() error{
		"another store's": func() error {
			b, err := os.ReadFile(other.asinIndex)
			if err != nil {
				return err
			}
			return os.WriteFile(w.asinIndex, b, 0o644)
		},
		"damaged": func() error { return os.WriteFile(w.asinIndex, []byte("STASINX1 and then nothing useful"), 0o644) },
		"damaged past its header": func() error {
			b, err := os.ReadFile(w.asinIndex)
			if err != nil {
				return err
			}
			b[len(b)-1] ^= 0xff
			return os.WriteFile(w.asinIndex, b, 0o644)
		},
	} {
		if err := spoil(); err != nil {
			t.Fatal(err)
		}
		if x := w.openASINIndex(ctx, w.db); x != nil {
			x.close()
			t.Fatalf("%s index was used", what)
		}
		rows := []report.Row{productRow(3, "t", 1, "B0C", "B0X", "B0A")}
		load(t, w, "ws", productWeek(1, rows...))
		checkProducts(t, w, rows)
		w.WaitBackground()
		checkIndexMatchesDictionary(t, w)
	}
	if tmp, _ := filepath.Glob(w.asinIndex + ".*.tmp"); len(tmp) > 0 {
		t.Errorf("temporary index files left: %v", tmp)
	}
}

// An index a killed process was writing (its temporary file) is removed when the store opens.
func TestOpenRemovesAnUnfinishedASINIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.duckdb")
	closeChecked(t, openAt(t, path))
	unfinished := asinIndexPath(path) + ".12345.tmp"
	if err := os.WriteFile(unfinished, []byte("half an index"), 0o600); err != nil {
		t.Fatal(err)
	}
	closeChecked(t, openAt(t, path))
	if _, err := os.Stat(unfinished); !os.IsNotExist(err) {
		t.Fatalf("the unfinished index is still there (%v)", err)
	}
}

// A dictionary entry with an id below 1 (staging's "not found") is left out of the index and
// found by DuckDB's lookup in the whole dictionary.
func TestASINIndexLeavesOutIDsBelowOne(t *testing.T) {
	w := openTemp(t)
	ctx := context.Background()
	load(t, w, "ws", productWeek(0, productRow(3, "t", 1, "B0A", "B0B")))
	if _, err := w.db.Exec(`insert into asin values (0, 'B0ZERO', 'zero')`); err != nil {
		t.Fatal(err)
	}
	if err := w.refreshASINIndex(ctx); err != nil {
		t.Fatal(err)
	}
	x := checkIndexMatchesDictionary(t, w)
	if _, found := x.Lookup("B0ZERO"); found || x.lookUpAfter() != -1 {
		t.Fatalf("B0ZERO found %v, lookUpAfter %d; want not indexed and the whole dictionary searched", found, x.lookUpAfter())
	}
	rows := []report.Row{productRow(3, "t", 1, "B0ZERO", "B0A", "B0NEW")}
	load(t, w, "ws", productWeek(1, rows...))
	checkProducts(t, w, rows)
}
