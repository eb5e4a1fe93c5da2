package warehouse

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"
)

// A list at a past period computes that period's measures once: paging, sorting and filtering
// it again read the cached table and answer as a fresh computation does. Another period, a
// change to the dataset's periods or a released cache computes them again, and a deleted
// earlier week is seen at once (no stale answer).
func TestPastMeasuresAreCachedUntilThePeriodsChange(t *testing.T) {
	w := openTemp(t)
	files := seriesFiles(t, 8)
	importFiles(t, w, "ws", files[:7]...)
	d := dataset(t, w, "ws")
	ctx := context.Background()
	week5 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC) // a Wednesday of week 5 (2026-03-29..04-04)
	week4 := week5.AddDate(0, 0, -7)
	explore := func(q ExploreQuery) string {
		t.Helper()
		p, err := w.Explore(ctx, d, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Rows) == 0 {
			t.Fatalf("query %+v: no rows", q)
		}
		b, _ := json.Marshal(p)
		return string(b)
	}
	queries := []ExploreQuery{
		{At: week5, Sort: "term", Window: 4, Limit: 20},
		{At: week5, Sort: "term", Window: 4, Limit: 20, Offset: 20},
		{At: week5, List: "risers", Window: 1, Sort: "change1", Desc: true, Limit: 20},
		{At: week5, Search: "tumbler", Sort: "rank", Window: 4, Limit: 50},
	}
	computed := func() int64 { return pastComputed.Load() }
	start := computed()
	var first []string
	for _, q := range queries {
		first = append(first, explore(q))
	}
	if n := computed() - start; n != 1 {
		t.Fatalf("four questions at one period computed its measures %d times, want once", n)
	}
	w.past.release()
	for i, q := range queries {
		if got := explore(q); got != first[i] {
			t.Errorf("query %d: the cached answer differs from a fresh one:\n got %.400s\nwant %.400s", i, got, first[i])
		}
	}
	if n := computed() - start; n != 2 {
		t.Fatalf("after release: computed %d times, want 2", n)
	}
	// Several sellers at two periods at once: each answer is its period's.
	other := ExploreQuery{At: week4, Sort: "term", Window: 4, Limit: 20}
	atWeek4 := explore(other)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q, want := queries[0], first[0]
			if i%2 == 1 {
				q, want = other, atWeek4
			}
			p, err := w.Explore(ctx, d, q) // not explore: t.Fatal belongs to the test's goroutine
			b, _ := json.Marshal(p)
			if err != nil || string(b) != want {
				t.Errorf("concurrent question %d answered another period (%v)", i, err)
			}
		}()
	}
	wg.Wait()
	// Week 4 deleted: week 5's changes over one week are now unknown; the next question at
	// week 5 computes them again instead of answering from the table cached before.
	explore(queries[2])
	if err := w.DeletePeriod(ctx, d.ID, d.Kind, week4); err != nil {
		t.Fatal(err)
	}
	before := computed()
	got := explore(queries[0])
	if computed() != before+1 {
		t.Error("a question after a deletion was answered from the cached table")
	}
	if got == first[0] {
		t.Error("week 5 answers as before week 4 was deleted: the test proves nothing")
	}
	w.past.release()
	if fresh := explore(queries[0]); fresh != got {
		t.Errorf("after the deletion, the answer differs from a fresh computation:\n got %.400s\nwant %.400s", got, fresh)
	}
}

// An export at a past period streams at the pace of the seller's download: while one is held
// mid-stream, a list at a past period still answers (the export does not hold the cache).
func TestPastExportDoesNotHoldTheCache(t *testing.T) {
	w := openTemp(t)
	importFiles(t, w, "ws", seriesFiles(t, 7)...)
	d := dataset(t, w, "ws")
	ctx := context.Background()
	week5 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	streaming, release := make(chan struct{}), make(chan struct{})
	answered, exported := make(chan error, 1), make(chan error, 1)
	go func() {
		first := true
		exported <- w.ExportTerms(ctx, d, ExploreQuery{At: week5, Sort: "term", Window: 4}, func(TermRow) error {
			if first { // hold the stream until the list has answered
				first = false
				close(streaming)
				<-release
			}
			return nil
		})
	}()
	<-streaming
	go func() {
		_, err := w.Explore(ctx, d, ExploreQuery{At: week5, Sort: "rank", Window: 4, Limit: 20})
		answered <- err
	}()
	select {
	case err := <-exported:
		t.Fatalf("the export ended before the list answered: %v", err)
	case <-time.After(time.Minute): // the list waits on the export: it would never answer
		close(release)
		t.Fatal("a list at a past period waited for an export held mid-stream")
	case err := <-answered:
		close(release)
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := <-exported; err != nil {
		t.Fatal(err)
	}
}
