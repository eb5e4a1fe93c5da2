package trends

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

const maxFilesPerUpload = 50

// upload streams each file of a multipart form to a temporary file (never whole in memory),
// then queues one import job per file. Form fields: files (repeated), marketplace, period, lenient.
func (s *Service) upload(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, importData)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	// A full queue answers at once, before the body is read.
	room := s.jobs.room(c.userID)
	if room <= 0 {
		s.refuseFull(w, r)
		return
	}
	// A large upload may take longer than the server's read timeout: progress keeps it going.
	r.Body = http.MaxBytesReader(w, httpx.KeepReading(w, r.Body, httpx.LongStream), s.cfg.MaxUploadBytes)
	mr, err := r.MultipartReader()
	if err != nil {
		httpx.WriteError(w, r, httpx.BadRequest("body: expected multipart/form-data with one or more files"))
		return
	}
	var saved []*Job
	cleanup := func() {
		for _, j := range saved {
			os.Remove(j.path)
		}
	}
	fields := map[string]string{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			cleanup()
			httpx.WriteError(w, r, uploadError(err))
			return
		}
		if part.FileName() == "" {
			v, _ := io.ReadAll(io.LimitReader(part, 1024))
			if !utf8.Valid(v) || !utf8.ValidString(part.FormName()) {
				cleanup()
				httpx.WriteError(w, r, invalidUTF8(strings.ToValidUTF8(part.FormName(), "\uFFFD")))
				return
			}
			fields[part.FormName()] = strings.TrimSpace(string(v))
			continue
		}
		if !utf8.ValidString(part.FileName()) {
			cleanup()
			httpx.WriteError(w, r, httpx.BadRequest("files: a file name is not valid UTF-8: rename the file"))
			return
		}
		if len(saved) >= maxFilesPerUpload {
			cleanup()
			httpx.WriteError(w, r, httpx.BadRequest("files: at most 50 files per upload"))
			return
		}
		if len(saved) >= room {
			cleanup()
			s.refuseFull(w, r)
			return
		}
		job, err := s.saveUpload(part)
		if err != nil {
			cleanup()
			httpx.WriteError(w, r, uploadError(err))
			return
		}
		saved = append(saved, job)
	}
	opts, err := uploadOptions(fields)
	if err != nil || len(saved) == 0 {
		cleanup()
		if err == nil {
			err = httpx.BadRequest("files: no file in the upload")
		}
		httpx.WriteError(w, r, err)
		return
	}
	if err := s.uploadFitsPlan(r, c.workspace, opts); err != nil {
		cleanup()
		httpx.WriteError(w, r, err)
		return
	}
	for _, j := range saved {
		j.Workspace, j.opts, j.importer = c.workspace, opts, c.userID
		j.opts.Name = j.FileName                  // the upload's own name: Amazon's names say marketplace and period
		j.opts.MaxExpanded = s.cfg.MaxUploadBytes // a zip holds no more than a plain upload may be
	}
	if err := s.jobs.add(r.Context(), saved...); err != nil {
		cleanup()
		if errors.As(err, new(*httpx.Error)) {
			s.refuseFull(w, r)
			return
		}
		httpx.WriteError(w, r, err)
		return
	}
	out := make([]Job, 0, len(saved))
	for _, j := range saved {
		snap, _, _ := s.jobs.snapshot(r.Context(), c.workspace, j.ID)
		out = append(out, snap)
	}
	httpx.WriteJSON(w, http.StatusAccepted, jobsAnswer{Jobs: out})
}

// refuseFull answers 429 to an upload past the user's queue depth without reading the rest of
// its body: "Connection: close" keeps net/http from draining up to 256 KB of it first, which
// would hang on a slow or endless upload.
func (s *Service) refuseFull(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "60")
	w.Header().Set("Connection", "close")
	httpx.WriteError(w, r, errQueueFull(s.cfg.ImportQueuePerUser))
}

// uploadFitsPlan refuses at once an upload whose form names a marketplace the workspace has no
// dataset of when its plan allows no more datasets (files that name it themselves are checked
// when their job runs: Jobs.checkDataset).
func (s *Service) uploadFitsPlan(r *http.Request, workspace string, opts report.Options) error {
	if opts.Marketplace == "" {
		return nil
	}
	ds, err := s.wh.Datasets(r.Context(), workspace)
	if err != nil {
		return err
	}
	m := report.NormalizeMarketplace(opts.Marketplace)
	for _, d := range ds {
		if d.Marketplace == m {
			return nil
		}
	}
	return planError(s.allowDataset(r.Context(), workspace, len(ds)))
}

func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return httpx.NewError(http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", "The upload is larger than MAX_UPLOAD_BYTES allows")
	}
	var he *httpx.Error
	if errors.As(err, &he) {
		return he
	}
	return httpx.BadRequest("files: the upload could not be read: " + err.Error())
}

func (s *Service) saveUpload(part *multipart.Part) (*Job, error) {
	dir := s.uploadsDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "upload-*")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), part)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	name := filepath.Base(part.FileName())
	return &Job{ID: newID(), FileName: name, Source: SourceUpload, State: "queued", BytesTotal: n, CreatedAt: time.Now().UTC(),
		path: f.Name(), sha256: hex.EncodeToString(h.Sum(nil))}, nil
}

func uploadOptions(fields map[string]string) (report.Options, error) {
	var o report.Options
	if m := fields["marketplace"]; m != "" {
		if report.NormalizeMarketplace(m) == "" {
			return o, httpx.BadRequest("marketplace: unknown marketplace " + m + " (use e.g. amazon.com, US or walmart.com)")
		}
		o.Marketplace = m
	}
	if p := fields["period"]; p != "" {
		period, err := report.ParsePeriod(p)
		if err != nil {
			return o, httpx.BadRequest("period: " + err.Error())
		}
		o.Period = &period
	}
	switch fields["lenient"] {
	case "", "false":
	case "true":
		o.Lenient = true
	default:
		return o, httpx.BadRequest("lenient: must be true or false")
	}
	return o, nil
}

func (s *Service) listJobs(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, readData)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	jobs, err := s.jobs.list(r.Context(), c.workspace)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, jobsAnswer{Jobs: jobs})
}

func (s *Service) getJob(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, readData)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if r.URL.Query().Get("wait") == "true" {
		// Long polling: answer when the job ends, or after 25 s with its progress so far.
		ctx, cancel := context.WithTimeout(r.Context(), 25*time.Second)
		s.jobs.wait(ctx, c.workspace, r.PathValue("job"))
		cancel()
	}
	job, ok, err := s.jobs.snapshot(r.Context(), c.workspace, r.PathValue("job"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if !ok {
		httpx.WriteError(w, r, httpx.NewError(http.StatusNotFound, "NOT_FOUND", "No such import job"))
		return
	}
	httpx.WriteJSON(w, http.StatusOK, job)
}

// cancelJob stops a queued or running import of the workspace (within a second: the import
// checks its context between rows and DuckDB interrupts its statements); a finished job is left
// as it is.
func (s *Service) cancelJob(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, importData)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	found, err := s.jobs.cancelJob(r.Context(), c.workspace, r.PathValue("job"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if !found {
		httpx.WriteError(w, r, httpx.NewError(http.StatusNotFound, "NOT_FOUND", "No such import job"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Service) deletePeriod(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, deleteData)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	start, err := time.Parse(time.DateOnly, r.PathValue("start"))
	if err != nil {
		httpx.WriteError(w, r, httpx.BadRequest("start: must be the period's first day as YYYY-MM-DD"))
		return
	}
	d, err := s.dataset(r, c)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if err := s.wh.DeletePeriod(r.Context(), d.ID, d.Kind, start); errors.Is(err, warehouse.ErrNotFound) {
		httpx.WriteError(w, r, httpx.NewError(http.StatusNotFound, "NOT_FOUND", "No period starts on that day"))
		return
	} else if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
