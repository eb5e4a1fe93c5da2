package trends

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Deleting a workspace forgets its import history and removes the files of its queued uploads;
// a queued job never starts; other workspaces keep theirs.
func TestDropWorkspaceForgetsItsJobs(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	done := make(chan struct{})
	close(done)
	queued := &Job{ID: "q", Workspace: "a", State: "queued", path: file("q"), finished: make(chan struct{})}
	finished := &Job{ID: "d", Workspace: "a", State: "done", finished: done}
	other := &Job{ID: "o", Workspace: "b", State: "queued", path: file("o"), finished: make(chan struct{})}
	j := &Jobs{all: map[string]*Job{"q": queued, "d": finished, "o": other}}

	if err := j.dropWorkspace(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if got := j.list("a"); len(got) != 0 {
		t.Errorf("history of the deleted workspace: %d jobs", len(got))
	}
	if got := j.list("b"); len(got) != 1 {
		t.Errorf("history of another workspace: %d jobs, want 1", len(got))
	}
	if _, err := os.Stat(queued.path); !os.IsNotExist(err) {
		t.Error("the queued upload's file is still there")
	}
	if _, err := os.Stat(other.path); err != nil {
		t.Error("another workspace's upload file was removed")
	}
	// The worker reaching the dropped job skips it (running it would fail on the removed file).
	j.run(context.Background(), queued)
	select {
	case <-queued.finished:
	default:
		t.Error("the dropped job is not marked finished")
	}
	if queued.Error != "" || len(queued.Results) != 0 {
		t.Errorf("the dropped job ran: %q %v", queued.Error, queued.Results)
	}
}
