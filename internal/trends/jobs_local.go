package trends

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/localimport"
	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// ImportLocal is `sellertrends import`'s door, through the server's socket or in the command's
// own process: it queues the file as a job like any upload (so it shows in GET /imports with
// its progress), follows it, and reports its progress and results through emit. The file is
// the caller's and stays where it is. When ctx ends (the command went away) the job is
// cancelled.
func (j *Jobs) ImportLocal(ctx context.Context, req localimport.Request, emit func(localimport.Event)) error {
	opts := report.Options{Marketplace: req.Marketplace, Lenient: req.Lenient}
	if req.Period != "" {
		p, err := report.ParsePeriod(req.Period)
		if err != nil {
			return err
		}
		opts.Period = &p
	}
	if req.Workspace == "" || !filepath.IsAbs(req.Path) {
		return errors.New("a workspace and an absolute path are required")
	}
	job := &Job{ID: newID(), Workspace: req.Workspace, FileName: filepath.Base(req.Path), Source: SourceCLI, CreatedAt: time.Now().UTC(),
		path: req.Path, keep: true, opts: opts, importer: SourceCLI}
	if err := j.add(ctx, job); err != nil {
		return err
	}
	emitted := 0
	show := func() Job {
		j.mu.Lock()
		snap := *job
		j.mu.Unlock()
		for ; emitted < len(snap.Results); emitted++ {
			r := snap.Results[emitted]
			emit(localimport.Event{Name: r.SourceName, Done: fmt.Sprintf("%s: %s, %d rows, deepest rank %d, replaced: %v",
				r.SourceName, r.Period, r.Rows, r.DeepestRank, r.Replaced)})
		}
		if snap.State == "running" && snap.Report != "" {
			emit(localimport.Event{Name: snap.Report, Rows: snap.Rows, Read: snap.BytesRead, Total: snap.BytesTotal})
		}
		return snap
	}
	for {
		select {
		case <-job.changed:
			show()
		case <-job.finished:
			snap := show()
			if snap.State == "done" {
				if snap.SkipCount > 0 {
					emit(localimport.Event{Done: fmt.Sprintf("%s: %d bad rows skipped", snap.FileName, snap.SkipCount)})
				}
				return nil
			}
			if snap.State == "queued" { // the server stopped: an upload waits for the next start, but this is no upload
				//lint:ignore ST1005 the job's message, shown to the person as written
				return errors.New(errServerStopped)
			}
			return errors.New(snap.Error)
		case <-ctx.Done():
			j.cancelJob(context.Background(), job.Workspace, job.ID) //nolint:errcheck // a live job: no store read
			<-job.finished
			return ctx.Err()
		}
	}
}
