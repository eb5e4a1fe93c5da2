package warehouse

import (
	"context"
	"testing"
)

// DuckDB's allocator returns freed memory in the background while the store answers, and not
// while a writer holds the lock (purgeSetting).
func TestAllocatorPurgesWhileAnswering(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	purging := func() bool {
		t.Helper()
		var on bool
		if err := w.db.QueryRowContext(ctx, `select current_setting('allocator_background_threads')`).Scan(&on); err != nil {
			t.Fatal(err)
		}
		return on
	}
	if !purging() {
		t.Fatal("the background threads are off after Open")
	}
	unlock := w.lockWriter(ctx)
	if purging() {
		t.Error("the background threads are on while a writer holds the lock")
	}
	unlock()
	if !purging() {
		t.Error("the background threads stayed off after the writer let go")
	}
}
