package trends

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// Job is one file being imported in the background, whichever door it came through: a web
// upload or `sellertrends import` (the socket hand-over or the command's own store).
type Job struct {
	ID         string                    `json:"id"`
	Workspace  string                    `json:"-"`
	FileName   string                    `json:"fileName"`
	Source     string                    `json:"source"` // upload | cli
	State      string                    `json:"state"`  // queued | running | done | failed
	Report     string                    `json:"report,omitempty"`
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

	finished chan struct{}      // closed when the job is done or failed
	changed  chan struct{}      // a non-blocking nudge on every change (the socket hand-over follows it)
	cancel   context.CancelFunc // set while running
	dropped  bool               // the workspace was deleted (dropWorkspace): never recorded again
	path     string
	keep     bool // path is the caller's own file (cli), never removed
	sha256   string
	opts     report.Options
	importer string
}

// Job sources: the door a file came through.
const (
	SourceUpload = "upload"
	SourceCLI    = "cli"
)

// Jobs is the one job runner: it imports one file at a time (the warehouse has one writer),
// taking turns between workspaces (each has its own queue, first in first out), so one
// workspace's bulk load never stalls another's upload. Every job is recorded in the store when
// it is queued, starts and ends: it survives a restart (Recover) and stays in GET /imports.
type Jobs struct {
	wh      *warehouse.Warehouse
	st      *store.Store
	runner  string // host and DATA_DIR of this process: only it resumes the jobs recorded with it
	dataDir string // absolute
	perUser int

	mu     sync.Mutex
	live   map[string]*Job   // queued and running jobs, and those finished lately in this process
	queues map[string][]*Job // queued jobs per workspace
	turn   []string          // workspaces with queued jobs, in the order they are served
	wake   chan struct{}
	ctx    context.Context
	stop   context.CancelFunc
	done   chan struct{}
	// afterImport, when set, hears of every job that imported its files (alert digests).
	afterImport func(workspace string, recs []*warehouse.PeriodRecord)
	// newDataset, when set, is asked before a report starts a dataset the workspace does not
	// have yet (have: how many it has); its error fails the job (plan limits).
	newDataset func(ctx context.Context, workspace string, have int) error
}

// JobsConfig is what the runner works with.
type JobsConfig struct {
	Warehouse *warehouse.Warehouse
	Store     *store.Store
	DataDir   string
	PerUser   int // queued or running jobs a user may have at once (uploads); 0: no limit
}

// NewJobs builds the runner; Start starts its worker (after Recover, when the caller resumes).
func NewJobs(c JobsConfig) *Jobs {
	ctx, cancel := context.WithCancel(context.Background())
	dir, err := filepath.Abs(c.DataDir)
	if err != nil {
		dir = c.DataDir
	}
	// Servers on several machines may share one PostgreSQL with the same DATA_DIR path.
	host, _ := os.Hostname()
	return &Jobs{wh: c.Warehouse, st: c.Store, runner: host + ":" + dir, dataDir: dir, perUser: c.PerUser, live: map[string]*Job{},
		queues: map[string][]*Job{}, wake: make(chan struct{}, 1), ctx: ctx, stop: cancel, done: make(chan struct{})}
}

// Start starts the worker.
func (j *Jobs) Start() { go j.work() }

// Close stops the worker: the running import is cancelled (it leaves its dataset as it was)
// and an upload's job is recorded as queued again, to be resumed at the next start.
func (j *Jobs) Close() {
	j.stop()
	<-j.done
}

func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// errQueueFull answers an upload past the user's queue depth, at once.
func errQueueFull(limit int) error {
	return httpx.NewError(http.StatusTooManyRequests, "TOO_MANY_IMPORTS",
		fmt.Sprintf("You have %d imports queued or running, the most allowed (IMPORT_QUEUE_PER_USER); upload more once they finish", limit))
}

// room is how many more uploads the user may queue now.
func (j *Jobs) room(user string) int {
	if j.perUser <= 0 {
		return maxFilesPerUpload
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.perUser - j.activeOf(user)
}

func (j *Jobs) activeOf(user string) int {
	n := 0
	for _, job := range j.live {
		if job.importer == user && job.Source == SourceUpload && (job.State == "queued" || job.State == "running") {
			n++
		}
	}
	return n
}

// add records and queues jobs, all or none: an upload would take the user past their queue
// depth answers errQueueFull.
func (j *Jobs) add(ctx context.Context, jobs ...*Job) error {
	j.mu.Lock()
	if len(jobs) > 0 && jobs[0].Source == SourceUpload && j.perUser > 0 && j.activeOf(jobs[0].importer)+len(jobs) > j.perUser {
		j.mu.Unlock()
		return errQueueFull(j.perUser)
	}
	for _, job := range jobs {
		job.State = "queued"
		job.finished, job.changed = make(chan struct{}), make(chan struct{}, 1)
		j.live[job.ID] = job
	}
	j.mu.Unlock()
	for _, job := range jobs {
		if err := j.save(ctx, job); err != nil {
			j.mu.Lock()
			for _, job := range jobs {
				delete(j.live, job.ID)
			}
			j.mu.Unlock()
			return err
		}
	}
	j.mu.Lock()
	for _, job := range jobs {
		j.enqueue(job)
	}
	j.mu.Unlock()
	return nil
}

// enqueue puts a recorded job at the end of its workspace's queue (under mu).
func (j *Jobs) enqueue(job *Job) {
	if len(j.queues[job.Workspace]) == 0 {
		j.turn = append(j.turn, job.Workspace)
	}
	j.queues[job.Workspace] = append(j.queues[job.Workspace], job)
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

// next takes the first job of the workspace whose turn it is; that workspace goes to the back
// of the line if it has more.
func (j *Jobs) next() *Job {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.turn) == 0 {
		return nil
	}
	ws := j.turn[0]
	j.turn = j.turn[1:]
	q := j.queues[ws]
	job := q[0]
	if len(q) > 1 {
		j.queues[ws] = q[1:]
		j.turn = append(j.turn, ws)
	} else {
		delete(j.queues, ws)
	}
	return job
}

// unqueue removes a queued job (cancelled); false if it is no longer queued.
func (j *Jobs) unqueue(job *Job) bool {
	q := j.queues[job.Workspace]
	for i, x := range q {
		if x != job {
			continue
		}
		j.queues[job.Workspace] = append(q[:i:i], q[i+1:]...)
		if len(j.queues[job.Workspace]) == 0 {
			delete(j.queues, job.Workspace)
			for k, ws := range j.turn {
				if ws == job.Workspace {
					j.turn = append(j.turn[:k:k], j.turn[k+1:]...)
					break
				}
			}
		}
		return true
	}
	return false
}

// cancelJob stops a queued or running job of the workspace; a finished one is left as it is.
// It answers false when the workspace has no such job.
func (j *Jobs) cancelJob(ctx context.Context, workspace, id string) (bool, error) {
	j.mu.Lock()
	job, ok := j.live[id]
	if !ok || job.Workspace != workspace {
		j.mu.Unlock()
		_, found, err := j.snapshot(ctx, workspace, id)
		return found, err
	}
	switch {
	case job.State == "queued" && j.unqueue(job):
		j.mu.Unlock()
		j.finish(job, "failed", errCancelled)
	case job.State == "running" && job.cancel != nil:
		job.cancel()
		j.mu.Unlock()
	default:
		j.mu.Unlock()
	}
	return true, nil
}

const errCancelled = "Cancelled before the import finished; the report being imported was left out (reports imported before it stay)."

// snapshot returns a copy of a job, safe to encode while the worker updates it: a live one, or
// its record.
func (j *Jobs) snapshot(ctx context.Context, workspace, id string) (Job, bool, error) {
	j.mu.Lock()
	job, ok := j.live[id]
	if ok && job.Workspace == workspace {
		snap := *job
		j.mu.Unlock()
		return snap, true, nil
	}
	j.mu.Unlock()
	if j.st == nil {
		return Job{}, false, nil
	}
	rec, err := j.st.ImportJob(ctx, workspace, id)
	if errors.Is(err, store.ErrNotFound) {
		return Job{}, false, nil
	}
	if err != nil {
		return Job{}, false, err
	}
	out, err := decodeJob(rec)
	return *out, err == nil, err
}

// wait blocks until the job finishes or ctx ends (long polling).
func (j *Jobs) wait(ctx context.Context, workspace, id string) {
	j.mu.Lock()
	job, ok := j.live[id]
	j.mu.Unlock()
	if !ok || job.Workspace != workspace {
		return
	}
	select {
	case <-job.finished:
	case <-ctx.Done():
	}
}

// listLimit is how many of a workspace's jobs GET /imports shows, newest first.
const listLimit = 200

// list returns the workspace's jobs, newest first: the records, with live progress over them.
func (j *Jobs) list(ctx context.Context, workspace string) ([]Job, error) {
	byID := map[string]Job{}
	if j.st != nil {
		recs, err := j.st.ImportJobs(ctx, workspace, listLimit)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			job, err := decodeJob(rec)
			if err != nil {
				return nil, err
			}
			byID[job.ID] = *job
		}
	}
	j.mu.Lock()
	for _, job := range j.live {
		if job.Workspace == workspace {
			byID[job.ID] = *job
		}
	}
	j.mu.Unlock()
	out := make([]Job, 0, len(byID))
	for _, job := range byID {
		out = append(out, job)
	}
	sort.Slice(out, func(a, b int) bool {
		if !out[a].CreatedAt.Equal(out[b].CreatedAt) {
			return out[a].CreatedAt.After(out[b].CreatedAt)
		}
		return out[a].ID < out[b].ID
	})
	return out[:min(len(out), listLimit)], nil
}

// update changes a job under the lock and nudges whoever follows it.
func (j *Jobs) update(job *Job, fn func(*Job)) {
	j.mu.Lock()
	fn(job)
	j.mu.Unlock()
	select {
	case job.changed <- struct{}{}:
	default:
	}
}

func (j *Jobs) work() {
	defer close(j.done)
	for {
		if job := j.next(); job != nil {
			j.run(job)
			continue
		}
		select {
		case <-j.ctx.Done():
			return
		case <-j.wake:
		}
	}
}

// run imports one job's file and records how it ended. A shutdown stops it: an upload is then
// queued again (its file is kept for the next start), a command's file fails, since the command
// that waits for it has lost its server.
func (j *Jobs) run(job *Job) {
	if j.ctx.Err() != nil {
		return // stopping: the job stays queued in its record
	}
	ctx, cancel := context.WithCancel(j.ctx)
	defer cancel()
	j.update(job, func(x *Job) { x.State, x.cancel = "running", cancel })
	if err := j.save(j.ctx, job); err != nil {
		slog.Error("import job: recording its start", "job", job.ID, "error", err)
	}
	err := j.importFile(ctx, job)
	switch {
	case err == nil:
		j.finish(job, "done", "")
		if j.afterImport != nil {
			j.afterImport(job.Workspace, job.Results)
		}
	case j.ctx.Err() != nil && job.Source == SourceUpload && !j.isDropped(job):
		j.update(job, func(x *Job) {
			x.State, x.Rows, x.BytesRead, x.Results, x.Skipped, x.SkipCount = "queued", 0, 0, nil, nil, 0
		})
		if err := j.save(context.Background(), job); err != nil {
			slog.Error("import job: recording it for the next start", "job", job.ID, "error", err)
		}
		close(job.finished)
	case j.ctx.Err() != nil:
		j.finish(job, "failed", errServerStopped)
	case ctx.Err() != nil:
		j.finish(job, "failed", errCancelled)
	default:
		j.fail(job, err)
	}
}

const errServerStopped = "The server stopped during this import; the report being imported was left out (reports imported before it stay). Run the import again."

// importFile imports every report of the job's file (a zip may hold several) into the job's
// workspace: parse, stage, commit with the measures, progress. It is the one import path: web
// uploads, the command's hand-over to a running server and its own imports all run it.
func (j *Jobs) importFile(ctx context.Context, job *Job) error {
	if job.sha256 == "" {
		sum, err := fileSHA256(job.path)
		if err != nil {
			return &report.ParseError{Expected: "a readable file: " + err.Error()}
		}
		j.update(job, func(x *Job) { x.sha256 = sum })
	}
	srcs, err := report.Open(job.path, job.opts)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	for _, src := range srcs {
		if err := ctx.Err(); err != nil {
			return err
		}
		j.update(job, func(x *Job) { x.Report = src.Meta().Name })
		if err := j.checkDataset(ctx, job.Workspace, src.Meta()); err != nil {
			return err
		}
		rec, err := j.wh.Import(ctx, src, warehouse.ImportOptions{Workspace: job.Workspace, ImportedBy: job.importer, SHA256: job.sha256, Lenient: job.opts.Lenient,
			Progress: func(int64) {
				rows, read, total := src.Progress()
				j.update(job, func(x *Job) { x.Rows, x.BytesRead, x.BytesTotal = rows, read, max(total, x.BytesTotal) })
			}})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		skipped, n := src.Skipped()
		j.update(job, func(x *Job) {
			x.Results = append(x.Results, rec)
			x.Skipped = append(x.Skipped, skipped...)
			x.SkipCount += n
		})
	}
	return nil
}

// finish ends a job: its state and message recorded, an upload's temporary file removed, and
// its followers told.
func (j *Jobs) finish(job *Job, state, msg string) {
	j.update(job, func(x *Job) {
		x.State, x.Error = state, msg
		if state == "done" {
			x.BytesRead = x.BytesTotal
		}
	})
	j.closeFinished(job)
}

func (j *Jobs) closeFinished(job *Job) {
	if !job.keep {
		os.Remove(job.path)
	}
	if err := j.save(context.Background(), job); err != nil {
		slog.Error("import job: recording its end", "job", job.ID, "error", err)
	}
	close(job.finished)
	j.prune()
}

// keepFinished is how many finished jobs stay in memory; older ones are read from the store.
const keepFinished = 100

func (j *Jobs) prune() {
	j.mu.Lock()
	defer j.mu.Unlock()
	var finished []*Job
	for _, job := range j.live {
		if job.State == "done" || job.State == "failed" {
			finished = append(finished, job)
		}
	}
	if len(finished) <= keepFinished || j.st == nil {
		return
	}
	sort.Slice(finished, func(a, b int) bool { return finished[a].CreatedAt.Before(finished[b].CreatedAt) })
	for _, job := range finished[:len(finished)-keepFinished] {
		delete(j.live, job.ID)
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
// workspace after its data is deleted; then their records are deleted.
func (j *Jobs) dropWorkspace(ctx context.Context, workspace string) error {
	var waits []*Job // running: wait for the end
	j.mu.Lock()
	for id, job := range j.live {
		if job.Workspace != workspace {
			continue
		}
		delete(j.live, id)
		job.dropped = true
		switch {
		case job.State == "queued" && j.unqueue(job):
			if !job.keep {
				os.Remove(job.path)
			}
			close(job.finished)
		case job.State == "running":
			if job.cancel != nil {
				job.cancel()
			}
			waits = append(waits, job)
		}
	}
	j.mu.Unlock()
	for _, job := range waits {
		select {
		case <-job.finished:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if j.st == nil {
		return nil
	}
	return j.st.DeleteImportJobs(ctx, workspace)
}

func (j *Jobs) isDropped(job *Job) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return job.dropped
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
	j.closeFinished(job)
}
