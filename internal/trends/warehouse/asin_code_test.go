package warehouse

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/asinindex"
)

// pageOf is the product page of code: its title and its terms.
func pageOf(t *testing.T, w *Warehouse, d *Dataset, code string) (string, []string) {
	t.Helper()
	p, err := w.ProductTerms(context.Background(), d, code, 50)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	var terms []string
	for _, ts := range p.Terms {
		terms = append(terms, ts.Term)
	}
	return p.Title, terms
}

// swapIndex puts data in place of the ASIN index the way the background job does: a new file
// renamed over it.
func swapIndex(t *testing.T, w *Warehouse, data []byte) {
	t.Helper()
	if err := os.WriteFile(w.asinIndex+".swap", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(w.asinIndex+".swap", w.asinIndex); err != nil {
		t.Fatal(err)
	}
}

// Product pages (and the watchlist's ProductNow) find their code through the ASIN index, the
// one on disk now, and in the dictionary past it when the index lacks the code.
func TestProductPagesFindCodesThroughTheIndex(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	load(t, w, "ws", productWeek(0, productRow(3, "kept", 1, "B0A", "B0B", "B0C"), productRow(4, "other", 2, "B0D")))
	w.WaitBackground()
	d := dataset(t, w, "ws")
	if title, terms := pageOf(t, w, d, "b0a"); title != "title of B0A" || len(terms) != 1 || terms[0] != "kept" {
		t.Fatalf("b0a: %q %v", title, terms)
	}
	if _, err := w.ProductTerms(ctx, d, "B0NOPE", 50); !errors.Is(err, ErrNotFound) {
		t.Fatalf("B0NOPE: %v, want ErrNotFound", err)
	}
	first, err := os.ReadFile(w.asinIndex)
	if err != nil {
		t.Fatal(err)
	}

	// Codes added after the first week's index, one of them one the index cannot hold.
	load(t, w, "ws", productWeek(1, productRow(3, "kept", 1, "B0NEW1"), productRow(4, "other", 2, "WALMART-1234567890")))
	w.WaitBackground()
	swapIndex(t, w, first)
	if _, terms := pageOf(t, w, d, "B0NEW1"); len(terms) != 1 || terms[0] != "kept" {
		t.Fatalf("B0NEW1, past the index: %v", terms)
	}
	if _, terms := pageOf(t, w, d, "walmart-1234567890"); len(terms) != 1 || terms[0] != "other" {
		t.Fatalf("an unindexable code: %v", terms)
	}
	// The watchlist's latest numbers find their product the same way.
	if now, err := w.ProductNow(ctx, d, "b0new1"); err != nil || now.Terms != 1 || now.BestTerm != "kept" || now.Title != "title of B0NEW1" {
		t.Fatalf("ProductNow(b0new1), past the index: %+v, %v", now, err)
	}
	if now, err := w.ProductNow(ctx, d, "B0NOPE"); err != nil || now.Terms != 0 {
		t.Fatalf("ProductNow(B0NOPE): %+v, %v", now, err)
	}

	// An index that says B0A is B0B's id: the page is B0B's, so the index was asked, and the
	// file renamed into place was read rather than the one opened before.
	var idB int32
	if err := w.db.QueryRow(`select id from asin where asin = 'B0B'`).Scan(&idB); err != nil {
		t.Fatal(err)
	}
	x := w.openASINIndex(ctx, w.db)
	cov := x.Coverage()
	x.close()
	wrong, _ := asinindex.PairOf("B0A", idB)
	if err := asinindex.Write(w.asinIndex, nil, []asinindex.Pair{wrong}, cov); err != nil {
		t.Fatal(err)
	}
	if title, _ := pageOf(t, w, d, "B0A"); title != "title of B0B" {
		t.Fatalf("B0A through an index naming B0B's id: title %q", title)
	}

	// Without an index, the dictionary answers alone.
	if err := os.Remove(w.asinIndex); err != nil {
		t.Fatal(err)
	}
	if title, _ := pageOf(t, w, d, "B0A"); title != "title of B0A" {
		t.Fatalf("B0A without an index: title %q", title)
	}
}
