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
	queued := &Job{ID: "q", Workspace: "a", Source: SourceUpload, path: file("q")}
	other := &Job{ID: "o", Workspace: "b", Source: SourceUpload, path: file("o")}
	j := NewJobs(JobsConfig{})
	if err := j.add(context.Background(), queued, other); err != nil {
		t.Fatal(err)
	}
	finished := &Job{ID: "d", Workspace: "a", State: "done", finished: make(chan struct{}), changed: make(chan struct{}, 1)}
	close(finished.finished)
	j.live["d"] = finished

	if err := j.dropWorkspace(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if got, _ := j.list(context.Background(), "a"); len(got) != 0 {
		t.Errorf("history of the deleted workspace: %d jobs", len(got))
	}
	if got, _ := j.list(context.Background(), "b"); len(got) != 1 {
		t.Errorf("history of another workspace: %d jobs, want 1", len(got))
	}
	if _, err := os.Stat(queued.path); !os.IsNotExist(err) {
		t.Error("the queued upload's file is still there")
	}
	if _, err := os.Stat(other.path); err != nil {
		t.Error("another workspace's upload file was removed")
	}
	// The dropped job is out of the queue and finished: the worker never starts it.
	select {
	case <-queued.finished:
	default:
		t.Error("the dropped job is not marked finished")
	}
	if next := j.next(); next != other || j.next() != nil {
		t.Errorf("the queue after the drop: %v", next)
	}
}
