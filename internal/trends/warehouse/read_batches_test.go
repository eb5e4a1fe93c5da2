package warehouse

import (
	"context"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// The parser runs ahead of the writers by batchesAhead batches; a batch of long rows must be
// handed over once it holds stageBatchBytes of text, so those waiting batches stay small.
func TestReadBatchesBoundsEachBatchsText(t *testing.T) {
	long := strings.Repeat("x", 60<<10) // under MaxFieldBytes, as a hostile report's cells can be
	src := &memSource{}
	for i := range 300 {
		row := report.Row{Line: i + 2, Rank: int32(i + 1), Term: "term"}
		for k := range 3 {
			row.Products[k] = report.Product{ASIN: "B000000000", Title: long}
		}
		src.rows = append(src.rows, row)
	}
	batches, errc := readBatches(context.Background(), src)
	next := 0
	for b := range batches {
		if b.first != next {
			t.Fatalf("batch starts at row %d, want %d", b.first, next)
		}
		size := 0
		for i := range b.rows {
			size += textBytes(&b.rows[i])
		}
		if last := textBytes(&b.rows[len(b.rows)-1]); size-last >= stageBatchBytes {
			t.Fatalf("batch of %d rows holds %d bytes of text before its last row, past %d", len(b.rows), size-last, stageBatchBytes)
		}
		next += len(b.rows)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if next != len(src.rows) {
		t.Fatalf("%d rows read, want %d", next, len(src.rows))
	}
}
