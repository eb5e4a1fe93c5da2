package warehouse

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// termSeen finds every repeated term among many, in tables it had to grow, and says nothing
// of distinct ones.
func TestTermSeenFindsRepeats(t *testing.T) {
	var s termSeen
	for i := range 200_000 {
		s.add(fmt.Sprint("term ", i))
	}
	if s.maybeTwice || s.n != 200_000 || len(s.slots) < 4*s.n/3 {
		t.Fatalf("distinct terms: twice %v, %d held in %d slots", s.maybeTwice, s.n, len(s.slots))
	}
	s.add("term 123456")
	if !s.maybeTwice || s.slots != nil {
		t.Fatalf("a repeat: twice %v, table kept %v", s.maybeTwice, s.slots != nil)
	}
}

// An import asks DuckDB for duplicates only when a term's hash came twice, and the answers are
// the same when distinct terms share a hash: the query finds no duplicate then, and still finds
// a real one.
func TestDuplicatesAreAskedOnlyForRepeatedHashes(t *testing.T) {
	w := openTemp(t)
	asked := duplicateQueries.Load()
	rec := load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2, "c": 3}))
	if duplicateQueries.Load() != asked || rec.Rows != 3 || len(rec.Warnings) != 0 {
		t.Fatalf("distinct terms: %d queries, %+v", duplicateQueries.Load()-asked, rec)
	}

	defer func(h func(string) uint64) { seenHash = h }(seenHash)
	seenHash = func(string) uint64 { return 42 } // every term shares one hash
	rec = load(t, w, "ws", week(1, map[string]int{"a": 1, "b": 2, "d": 3}))
	if duplicateQueries.Load() != asked+1 || rec.Rows != 3 || len(rec.Warnings) != 0 {
		t.Fatalf("shared hashes: %d queries, %+v", duplicateQueries.Load()-asked, rec)
	}
	twice := week(2, map[string]int{"a": 1, "b": 2})
	twice.rows = append(twice.rows, report.Row{Line: 9, Term: "a", Rank: 3})
	_, err := w.Import(context.Background(), twice, ImportOptions{Workspace: "ws"})
	var pe *report.ParseError
	if !errors.As(err, &pe) || pe.Line != 9 || pe.Value != "a" {
		t.Fatalf("a duplicate among shared hashes: %v", err)
	}
}
