package trends

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// Job is one uploaded file being imported in the background.
type Job struct {
	ID         string                    `json:"id"`
	Workspace  string                    `json:"-"`
	FileName   string                    `json:"fileName"`
	State      string                    `json:"state"` // queued | running | done | failed
	BytesRead  int64                     `json:"bytesRead"`
	BytesTotal int64                     `json:"bytesTotal"`
	Rows       int64                     `json:"rows"`
	Results    []*warehouse.PeriodRecord `json:"results"`
	Skipped    []report.ParseError       `json:"skipped,omitempty"`
	SkipCount  int                       `json:"skippedCount"`
	Error      string                    `json:"error,omitempty"`
	// ErrorCode is PLAN_LIMIT_REACHED when the file would add a dataset the plan does not allow.
	ErrorCode string `json:"errorCode,omitempty"`
	// Where a failed file is wrong, when the error says: a CSV line or an SP-API record, the
	// column by its header name, and the value found there.
	Line      int       `json:"line,omitempty"`
	Record    int       `json:"record,omitempty"`
	Column    string    `json:"column,omitempty"`
	Value     string    `json:"value,omitempty"`
	CreatedAt time.Time `json:"createdAt"`

	finished chan struct{} // closed when the job is done or failed
	path     string
	sha256   string
	opts     report.Options
	importer string
	cancel   context.CancelFunc // set while running; dropWorkspace stops the import with it
	dropped  bool               // the workspace was deleted: a queued job does not start
}

// Jobs runs imports one at a time (the warehouse has one writer) in upload order.
type Jobs struct {
	wh    *warehouse.Warehouse
	mu    sync.Mutex
	all   map[string]*Job
	queue chan *Job
	stop  context.CancelFunc
	done  chan struct{}
	// afterImport, when set, hears of every job that imported its files (alert digests).
	afterImport func(workspace string, recs []*warehouse.PeriodRecord)
	// newDataset, when set, is asked before a report starts a dataset the workspace does not
	// have yet (have: how many it has); its error fails the job (plan limits).
	newDataset func(ctx context.Context, workspace string, have int) error
}

func newJobs(wh *warehouse.Warehouse) *Jobs {
	ctx, cancel := context.WithCancel(context.Background())
	j := &Jobs{wh: wh, all: map[string]*Job{}, queue: make(chan *Job, 1000), stop: cancel, done: make(chan struct{})}
	go j.work(ctx)
	return j
}

func (j *Jobs) close() {
	j.stop()
	<-j.done
}

func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// add queues a job.
func (j *Jobs) add(job *Job) {
	job.finished = make(chan struct{})
	j.mu.Lock()
	j.all[job.ID] = job
	j.mu.Unlock()
	j.queue <- job
}

// snapshot returns a copy of a job, safe to encode while the worker updates it.
func (j *Jobs) snapshot(workspace, id string) (Job, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	job, ok := j.all[id]
	if !ok || job.Workspace != workspace {
		return Job{}, false
	}
	return *job, true
}

// wait blocks until the job finishes or ctx ends (long polling).
func (j *Jobs) wait(ctx context.Context, workspace, id string) {
	j.mu.Lock()
	job, ok := j.all[id]
	j.mu.Unlock()
	if !ok || job.Workspace != workspace {
		return
	}
	select {
	case <-job.finished:
	case <-ctx.Done():
	}
}

func (j *Jobs) list(workspace string) []Job {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := []Job{}
	for _, job := range j.all {
		if job.Workspace == workspace {
			out = append(out, *job)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].CreatedAt.After(out[b].CreatedAt) })
	return out
}

func (j *Jobs) update(job *Job, fn func(*Job)) {
	j.mu.Lock()
	fn(job)
	j.mu.Unlock()
}

func (j *Jobs) work(ctx context.Context) {
	defer close(j.done)
	for {
		select {
		case <-ctx.Done():
			return
		case job := <-j.queue:
			j.run(ctx, job)
		}
	}
}

// run imports every report of the file; the temporary upload is removed afterwards.
func (j *Jobs) run(ctx context.Context, job *Job) {
	defer close(job.finished)
	defer os.Remove(job.path)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	dropped := false
	j.update(job, func(x *Job) { x.State, x.cancel, dropped = "running", cancel, x.dropped })
	if dropped {
		return
	}
	srcs, err := report.Open(job.path, job.opts)
	if err != nil {
		j.fail(job, err)
		return
	}
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	for _, src := range srcs {
		if err := j.checkDataset(ctx, job.Workspace, src.Meta()); err != nil {
			j.fail(job, err)
			return
		}
		rec, err := j.wh.Import(ctx, src, warehouse.ImportOptions{Workspace: job.Workspace, ImportedBy: job.importer, SHA256: job.sha256, Lenient: job.opts.Lenient,
			Progress: func(int64) {
				rows, read, total := src.Progress()
				j.update(job, func(x *Job) { x.Rows, x.BytesRead, x.BytesTotal = rows, read, max(total, x.BytesTotal) })
			}})
		if err != nil {
			j.fail(job, err)
			return
		}
		skipped, n := src.Skipped()
		j.update(job, func(x *Job) {
			x.Results = append(x.Results, rec)
			x.Skipped = append(x.Skipped, skipped...)
			x.SkipCount += n
		})
	}
	j.update(job, func(x *Job) { x.State, x.BytesRead = "done", x.BytesTotal })
	if j.afterImport != nil {
		j.afterImport(job.Workspace, job.Results)
	}
}

// checkDataset asks newDataset before a report opens a dataset the workspace lacks. Jobs run
// one at a time, so no other job creates one between the check and the import.
func (j *Jobs) checkDataset(ctx context.Context, workspace string, meta report.Meta) error {
	if j.newDataset == nil {
		return nil
	}
	ds, err := j.wh.Datasets(ctx, workspace)
	if err != nil {
		return err
	}
	for _, d := range ds {
		if d.Marketplace == meta.Marketplace && d.Kind == meta.Period.Kind {
			return nil
		}
	}
	return j.newDataset(ctx, workspace, len(ds))
}

// dropWorkspace forgets a deleted workspace's jobs: queued ones never start (their files are
// removed), a running one is cancelled and waited for, so nothing is imported into the
// workspace after its data is deleted.
func (j *Jobs) dropWorkspace(ctx context.Context, workspace string) error {
	var waits []*Job // running or finished: wait for the end (at once when finished)
	var queued []string
	j.mu.Lock()
	for id, job := range j.all {
		if job.Workspace != workspace {
			continue
		}
		delete(j.all, id)
		job.dropped = true
		if job.cancel != nil {
			job.cancel()
		}
		if job.State == "queued" {
			queued = append(queued, job.path)
		} else {
			waits = append(waits, job)
		}
	}
	j.mu.Unlock()
	for _, path := range queued {
		os.Remove(path) // the worker skips the job and removes it too when it reaches it
	}
	for _, job := range waits {
		select {
		case <-job.finished:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// errImportServer is what a seller reads when an import fails for a reason that is not the file's.
const errImportServer = "The import failed on our side, not because of your file; the dataset was left as it was. Try again in a moment."

func (j *Jobs) fail(job *Job, err error) {
	var pe *report.ParseError
	var le *plan.LimitError
	msg, code := err.Error(), ""
	if errors.As(err, &le) { // the seller's plan, not the file: say which plan takes it
		pe, code = &report.ParseError{}, le.HTTP().Code
	} else if !errors.As(err, &pe) {
		// Only what is wrong with the file is the seller's to read; a database's own words
		// ("database is locked") are logged for us and replaced by a sentence for them.
		pe = &report.ParseError{}
		msg = errImportServer
		slog.Error("import failed", "job", job.ID, "file", job.FileName, "error", err)
	}
	j.update(job, func(x *Job) {
		x.State, x.Error, x.ErrorCode, x.Line, x.Record, x.Column, x.Value = "failed", msg, code, pe.Line, pe.Record, pe.Column, report.ShortValue(pe.Value)
	})
}
