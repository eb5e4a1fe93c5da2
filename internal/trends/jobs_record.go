package trends

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// jobOptions is what a job was asked with, recorded so a restart can run it again.
type jobOptions struct {
	Marketplace string         `json:"marketplace,omitempty"`
	Period      *report.Period `json:"period,omitempty"`
	Lenient     bool           `json:"lenient,omitempty"`
	Name        string         `json:"name,omitempty"`
	MaxExpanded int64          `json:"maxExpanded,omitempty"`
	SHA256      string         `json:"sha256,omitempty"`
	Keep        bool           `json:"keep,omitempty"`
}

// save records the job as it is now.
func (j *Jobs) save(ctx context.Context, job *Job) error {
	if j.st == nil {
		return nil
	}
	j.mu.Lock()
	snap := *job
	j.mu.Unlock()
	if snap.dropped { // its workspace was deleted, its records with it
		return nil
	}
	detail, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	opts, err := json.Marshal(jobOptions{Marketplace: snap.opts.Marketplace, Period: snap.opts.Period, Lenient: snap.opts.Lenient,
		Name: snap.opts.Name, MaxExpanded: snap.opts.MaxExpanded, SHA256: snap.sha256, Keep: snap.keep})
	if err != nil {
		return err
	}
	return j.st.SaveImportJob(ctx, store.ImportJob{ID: snap.ID, Workspace: snap.Workspace, UserID: snap.importer, Source: snap.Source,
		State: snap.State, Runner: j.runner, Path: snap.path, Options: opts, Detail: detail, CreatedAt: snap.CreatedAt, UpdatedAt: time.Now().UTC()})
}

// decodeJob rebuilds a job from its record.
func decodeJob(rec store.ImportJob) (*Job, error) {
	job := &Job{}
	if err := json.Unmarshal(rec.Detail, job); err != nil {
		return nil, fmt.Errorf("import job %s: %w", rec.ID, err)
	}
	var o jobOptions
	if err := json.Unmarshal(rec.Options, &o); err != nil {
		return nil, fmt.Errorf("import job %s: %w", rec.ID, err)
	}
	job.ID, job.Workspace, job.Source, job.State, job.importer, job.path = rec.ID, rec.Workspace, rec.Source, rec.State, rec.UserID, rec.Path
	job.opts = report.Options{Marketplace: o.Marketplace, Period: o.Period, Lenient: o.Lenient, Name: o.Name, MaxExpanded: o.MaxExpanded}
	job.sha256, job.keep = o.SHA256, o.Keep
	return job, nil
}

const errStoppedUploadGone = "The server stopped before this import finished and the uploaded file is gone; upload it again. The dataset was left as it was."

// Recover deals with the jobs this runner (DATA_DIR) left unfinished when it stopped or was
// killed: an upload whose file is still there is queued again (from the start: a killed import
// committed nothing of its report), anything else is marked failed with the reason. Upload
// temporaries no job needs any more are removed. Call it before Start.
func (j *Jobs) Recover(ctx context.Context, uploadsDir string) error {
	if j.st == nil {
		return nil
	}
	recs, err := j.st.UnfinishedImportJobs(ctx, j.runner)
	if err != nil {
		return err
	}
	needed := map[string]bool{}
	for _, rec := range recs {
		job, err := decodeJob(rec)
		if err != nil {
			return err
		}
		job.finished, job.changed = make(chan struct{}), make(chan struct{}, 1)
		job.Rows, job.BytesRead, job.Results, job.Skipped, job.SkipCount = 0, 0, nil, nil, 0
		_, statErr := os.Stat(job.path)
		switch {
		case job.Source == SourceUpload && statErr == nil:
			job.State = "queued"
			needed[filepath.Clean(job.path)] = true
			if err := j.save(ctx, job); err != nil {
				return err
			}
			j.mu.Lock()
			j.live[job.ID] = job
			j.enqueue(job)
			j.mu.Unlock()
			slog.Info("import job resumed after a restart", "job", job.ID, "file", job.FileName)
		default:
			msg := errServerStopped
			if job.Source == SourceUpload {
				msg = errStoppedUploadGone
			}
			job.State, job.Error = "failed", msg
			if !job.keep {
				os.Remove(job.path)
			}
			if err := j.save(ctx, job); err != nil {
				return err
			}
			slog.Info("import job failed: the server stopped during it", "job", job.ID, "file", job.FileName)
		}
	}
	return removeStaleUploads(uploadsDir, needed)
}

// removeStaleUploads removes the upload temporaries no queued job reads: a killed process left
// them half-written or unrecorded.
func removeStaleUploads(dir string, needed map[string]bool) error {
	files, err := filepath.Glob(filepath.Join(dir, "upload-*"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if needed[filepath.Clean(f)] {
			continue
		}
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
