package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Import jobs are recorded, updated in place, listed newest first per workspace, and the
// unfinished ones found per runner, in both dialects.
func TestImportJobRecords(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		job := func(id, ws, runner, state string, at time.Time) store.ImportJob {
			return store.ImportJob{ID: id, Workspace: ws, UserID: "u", Source: "upload", State: state, Runner: runner, Path: "/x/" + id,
				Options: []byte(`{}`), Detail: []byte(`{"id":"` + id + `"}`), CreatedAt: at, UpdatedAt: at}
		}
		for _, j := range []store.ImportJob{
			job("a", "w1", "h:/d", "queued", t0), job("b", "w1", "h:/d", "running", t0.Add(time.Minute)),
			job("c", "w2", "h:/d", "done", t0), job("d", "w1", "other:/d", "queued", t0.Add(2*time.Minute)),
		} {
			if err := s.SaveImportJob(ctx, j); err != nil {
				t.Fatal(err)
			}
		}
		done := job("a", "w1", "h:/d", "done", t0)
		done.Detail = []byte(`{"id":"a","state":"done"}`)
		if err := s.SaveImportJob(ctx, done); err != nil {
			t.Fatal(err)
		}
		list, err := s.ImportJobs(ctx, "w1", 10)
		if err != nil || len(list) != 3 || list[0].ID != "d" || list[2].ID != "a" || list[2].State != "done" || string(list[2].Detail) != `{"id":"a","state":"done"}` {
			t.Fatalf("w1's jobs: %+v %v", list, err)
		}
		if !list[2].CreatedAt.Equal(t0) {
			t.Fatalf("createdAt %v, want %v", list[2].CreatedAt, t0)
		}
		open, err := s.UnfinishedImportJobs(ctx, "h:/d")
		if err != nil || len(open) != 1 || open[0].ID != "b" {
			t.Fatalf("unfinished: %+v %v", open, err)
		}
		if _, err := s.ImportJob(ctx, "w2", "a"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another workspace's job: %v", err)
		}
		if j, err := s.ImportJob(ctx, "w2", "c"); err != nil || j.State != "done" {
			t.Fatalf("one job: %+v %v", j, err)
		}
	})
}
