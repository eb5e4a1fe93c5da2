package trends

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// The worker takes the workspaces in turn: a workspace's bulk load holds another's upload back
// by one file, not by the whole load; within a workspace the files keep their order.
func TestQueueTakesWorkspacesInTurn(t *testing.T) {
	j := NewJobs(JobsConfig{})
	for _, id := range []string{"a1", "a2", "a3", "b1", "c1", "b2"} {
		if err := j.add(context.Background(), &Job{ID: id, Workspace: id[:1], Source: SourceCLI, keep: true}); err != nil {
			t.Fatal(err)
		}
	}
	var order []string
	for job := j.next(); job != nil; job = j.next() {
		order = append(order, job.ID)
	}
	if want := []string{"a1", "b1", "c1", "a2", "b2", "a3"}; !slices.Equal(order, want) {
		t.Fatalf("served %v, want %v", order, want)
	}
}

// A user's uploads beyond IMPORT_QUEUE_PER_USER are refused as a whole with 429; another
// user's are not, and a cancelled queued job frees its place at once.
func TestQueueDepthPerUser(t *testing.T) {
	j := NewJobs(JobsConfig{PerUser: 2})
	up := func(id, user string) *Job {
		return &Job{ID: id, Workspace: "w-" + user, Source: SourceUpload, importer: user, keep: true}
	}
	ctx := context.Background()
	if err := j.add(ctx, up("1", "u"), up("2", "u")); err != nil {
		t.Fatal(err)
	}
	var he *httpx.Error
	if err := j.add(ctx, up("3", "u")); !errors.As(err, &he) || he.Status != http.StatusTooManyRequests {
		t.Fatalf("a third upload: %v, want 429", err)
	}
	if j.room("u") != 0 || j.room("v") != 2 {
		t.Fatalf("room u %d, v %d", j.room("u"), j.room("v"))
	}
	if err := j.add(ctx, up("4", "v")); err != nil {
		t.Fatalf("another user's upload: %v", err)
	}
	if found, err := j.cancelJob(ctx, "w-u", "1"); !found || err != nil {
		t.Fatalf("cancel: %v %v", found, err)
	}
	if snap, _, _ := j.snapshot(ctx, "w-u", "1"); snap.State != "failed" || snap.Error != errCancelled {
		t.Fatalf("the cancelled job: %+v", snap)
	}
	if err := j.add(ctx, up("5", "u")); err != nil {
		t.Fatalf("after a cancel: %v", err)
	}
	var order []string
	for job := j.next(); job != nil; job = j.next() {
		order = append(order, job.ID)
	}
	if want := []string{"2", "4", "5"}; !slices.Equal(order, want) {
		t.Fatalf("served %v, want %v", order, want)
	}
}
