package warehouse

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// An import does not wait for the background job of the import before it: it cancels the job,
// which holds the writer lock, and the job runs again after it, so its results (here the next
// week's prepared measures inputs) still arrive.
func TestImportPreemptsTheBackgroundJob(t *testing.T) {
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(11, 12))
	held := make(chan struct{})
	var once sync.Once
	// The first run blocks, holding the writer lock, until it is cancelled; later runs pass.
	backgroundHook = func(ctx context.Context) {
		once.Do(func() {
			close(held)
			<-ctx.Done()
		})
	}
	defer func() {
		w.WaitBackground() // before the hook goes: the last import's job may be running
		backgroundHook = nil
	}()
	load(t, w, "bg", churnWeek(0, rng))
	<-held
	second := churnWeek(1, rng)
	done := make(chan error)
	go func() {
		_, err := w.Import(context.Background(), second, ImportOptions{Workspace: "bg", ImportedBy: "t"})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the second import waited for the first import's background job")
	}
	w.WaitBackground()
	loadPrepared(t, w, "bg", churnWeek(2, rng), "the background job did not run again after the import that cancelled it")
	w.WaitBackground()
	matchesFullRebuild(t, w, "bg", "after a preempted job")
}

// Once a dataset's background results have been outstanding for maxBackgroundDelay, a writer no
// longer cancels its job: a steady stream of imports cannot keep them stale forever.
func TestOverdueBackgroundJobIsNotCancelled(t *testing.T) {
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(13, 14))
	defer func(d time.Duration) {
		w.WaitBackground()
		maxBackgroundDelay = d
	}(maxBackgroundDelay)
	maxBackgroundDelay = 0
	held, release := make(chan struct{}), make(chan struct{})
	var cancelled atomic.Bool
	var once sync.Once
	backgroundHook = func(ctx context.Context) {
		once.Do(func() {
			close(held)
			select {
			case <-ctx.Done():
				cancelled.Store(true)
			case <-release:
			}
		})
	}
	defer func() {
		w.WaitBackground() // before the hook goes: the last import's job may be running
		backgroundHook = nil
	}()
	load(t, w, "overdue", churnWeek(0, rng))
	<-held
	w.preemptBackground() // what an import does first
	close(release)
	w.WaitBackground()
	if cancelled.Load() {
		t.Fatal("an overdue background job was cancelled")
	}
	loadPrepared(t, w, "overdue", churnWeek(1, rng), "the overdue job did not finish")
}
