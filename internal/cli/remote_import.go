package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/store"
)

type remoteWorkspace struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Role     string `json:"role"`
	ReadOnly bool   `json:"readOnly"`
}

// workspacesCmd lists the workspaces the signed-in user has on a server, or without --server
// every workspace of the store on this machine with its owners.
func workspacesCmd(cfg *config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("workspaces", flag.ContinueOnError)
	server := fs.String("server", "", "server URL (default: the store on this machine)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !hasServerFlag(args) {
		st, err := store.Open(context.Background(), cfg.DatabaseURL, cfg.DataDir)
		if err != nil {
			return err
		}
		defer st.Close()
		return localWorkspaces(context.Background(), st, out)
	}
	r, err := signedIn(*server)
	if err != nil {
		return err
	}
	var list []remoteWorkspace
	if err := r.call("GET", "/api/workspaces", nil, &list); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tROLE")
	for _, w := range list {
		role := w.Role
		if w.ReadOnly {
			role += " (read-only)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", w.ID, w.Name, w.Kind, role)
	}
	return tw.Flush()
}

// hasServerFlag reports whether import's arguments name a server (then the files go there).
func hasServerFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--server" || a == "-server" || strings.HasPrefix(a, "--server=") || strings.HasPrefix(a, "-server=") {
			return true
		}
	}
	return false
}

// remoteImportCmd uploads report files to a server's import endpoint, one file per upload,
// with a progress bar for the upload and one for the processing (the import job, polled).
// A file whose content the workspace already holds (same SHA-256) is skipped, and an upload cut
// by the network is tried again, so rerunning the command after a failure adds no duplicates
// (an import replaces its period anyway).
func remoteImportCmd(_ *config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	server := fs.String("server", "", "server URL")
	workspace := fs.String("workspace", "", "workspace id (default: your personal workspace; see `sellertrends workspaces`)")
	market := fs.String("marketplace", "", "marketplace when the file does not say")
	period := fs.String("period", "", "period when the file does not say")
	lenient := fs.Bool("lenient", false, "skip bad rows and report them instead of failing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: sellertrends import --server URL [--workspace W] [--marketplace M] [--period P] [--lenient] FILE [FILE ...]")
	}
	r, err := signedIn(*server)
	if err != nil {
		return err
	}
	ws, err := r.pickWorkspace(*workspace)
	if err != nil {
		return err
	}
	known, err := r.importedHashes(ws)
	if err != nil {
		return err
	}
	fields := map[string]string{"marketplace": *market, "period": *period}
	if *lenient {
		fields["lenient"] = "true"
	}
	failed := 0
	for _, path := range fs.Args() {
		if err := r.importFile(ws, path, fields, known, out); err != nil {
			fmt.Fprintf(out, "%s: FAILED: %v\n", path, err)
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files failed; the others were imported (run the command again: imported files are skipped)", failed, fs.NArg())
	}
	return nil
}

// pickWorkspace checks the workspace exists and is writable, or finds the personal one.
func (r *remote) pickWorkspace(id string) (string, error) {
	var list []remoteWorkspace
	if err := r.call("GET", "/api/workspaces", nil, &list); err != nil {
		return "", err
	}
	for _, w := range list {
		if (id == "" && w.Kind == "personal") || (id != "" && w.ID == id) {
			if w.ReadOnly {
				return "", fmt.Errorf("workspace %s is read-only", w.ID)
			}
			return w.ID, nil
		}
	}
	if id == "" {
		return "", errors.New("no personal workspace: name one with --workspace")
	}
	return "", fmt.Errorf("no workspace %q on this server (see `sellertrends workspaces`)", id)
}

// importedHashes are the SHA-256 of every file the workspace's periods came from.
func (r *remote) importedHashes(ws string) (map[string]bool, error) {
	var ds struct {
		Datasets []struct {
			ID any `json:"id"`
		} `json:"datasets"`
	}
	if err := r.call("GET", "/api/trends/"+url.PathEscape(ws)+"/datasets", nil, &ds); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, d := range ds.Datasets {
		var sum struct {
			Periods []struct {
				SHA256 string `json:"sha256"`
			} `json:"periods"`
		}
		if err := r.call("GET", fmt.Sprintf("/api/trends/%s/datasets/%v/summary", url.PathEscape(ws), d.ID), nil, &sum); err != nil {
			return nil, err
		}
		for _, p := range sum.Periods {
			known[p.SHA256] = true
		}
	}
	return known, nil
}

type remoteJob struct {
	ID         string `json:"id"`
	FileName   string `json:"fileName"`
	State      string `json:"state"`
	BytesRead  int64  `json:"bytesRead"`
	BytesTotal int64  `json:"bytesTotal"`
	Rows       int64  `json:"rows"`
	Error      string `json:"error"`
	Line       int    `json:"line"`
	SkipCount  int    `json:"skippedCount"`
	Results    []struct {
		Period struct {
			Start string `json:"start"`
			End   string `json:"end"`
		} `json:"period"`
		Rows     int64 `json:"rows"`
		Replaced bool  `json:"replaced"`
	} `json:"results"`
}

// uploadAttempts: an upload cut by the network is tried this many times in all.
const uploadAttempts = 3

func (r *remote) importFile(ws, path string, fields map[string]string, known map[string]bool, out io.Writer) error {
	sum, size, err := hashFile(path)
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	if known[sum] {
		fmt.Fprintf(out, "%s: already imported (same content), skipped\n", name)
		return nil
	}
	var job remoteJob
	for attempt := 1; ; attempt++ {
		job, err = r.upload(ws, path, size, fields, out)
		var apiErr *apiError
		if err == nil || errors.As(err, &apiErr) || attempt == uploadAttempts {
			break // the server answered (a refusal is final) or we gave up
		}
		wait := time.Duration(attempt) * 2 * time.Second
		fmt.Fprintf(out, "%s: upload interrupted (%v), retrying in %s\n", name, err, wait)
		time.Sleep(wait) // back off before reconnecting
	}
	if err != nil {
		return err
	}
	job, err = r.follow(ws, job, out)
	if err != nil {
		return err
	}
	if job.State != "done" {
		if job.Line > 0 {
			return fmt.Errorf("line %d: %s", job.Line, job.Error)
		}
		return errors.New(job.Error)
	}
	known[sum] = true
	for _, res := range job.Results {
		verb := "imported"
		if res.Replaced {
			verb = "replaced"
		}
		fmt.Fprintf(out, "%s: %s %s..%s, %d search terms\n", name, verb, day(res.Period.Start), day(res.Period.End), res.Rows)
	}
	if job.SkipCount > 0 {
		fmt.Fprintf(out, "%s: %d bad rows skipped\n", name, job.SkipCount)
	}
	return nil
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// upload streams one file as multipart (never whole in memory) behind an upload progress bar.
func (r *remote) upload(ws, path string, size int64, fields map[string]string, out io.Writer) (remoteJob, error) {
	f, err := os.Open(path)
	if err != nil {
		return remoteJob{}, err
	}
	defer f.Close()
	name := filepath.Base(path)
	bar := progressbar.NewOptions64(size, progressbar.OptionSetWriter(out), progressbar.OptionShowBytes(true),
		progressbar.OptionSetDescription(name+": uploading"), progressbar.OptionClearOnFinish())
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := writeForm(mw, fields, name, io.TeeReader(f, bar))
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequest("POST", r.base+"/api/trends/"+url.PathEscape(ws)+"/imports", pr)
	if err != nil {
		return remoteJob{}, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	var res struct {
		Jobs []remoteJob `json:"jobs"`
	}
	err = r.do(req, &res)
	pr.CloseWithError(io.ErrClosedPipe) // stops the writer if the server answered early
	bar.Finish()
	if err != nil {
		return remoteJob{}, err
	}
	if len(res.Jobs) != 1 {
		return remoteJob{}, fmt.Errorf("the server queued %d jobs for one file", len(res.Jobs))
	}
	return res.Jobs[0], nil
}

func writeForm(mw *multipart.Writer, fields map[string]string, name string, file io.Reader) error {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v := fields[k]; v != "" {
			if err := mw.WriteField(k, v); err != nil {
				return err
			}
		}
	}
	part, err := mw.CreateFormFile("files", name)
	if err != nil {
		return err
	}
	_, err = io.Copy(part, file)
	return err
}

// jobRefresh is how often the processing bar is redrawn from the job's progress.
const jobRefresh = 500 * time.Millisecond

// follow polls the import job until it ends, drawing its progress.
func (r *remote) follow(ws string, job remoteJob, out io.Writer) (remoteJob, error) {
	bar := progressbar.NewOptions64(max(job.BytesTotal, 1), progressbar.OptionSetWriter(out), progressbar.OptionShowBytes(true),
		progressbar.OptionSetDescription(job.FileName+": processing"), progressbar.OptionClearOnFinish())
	defer bar.Finish()
	path := "/api/trends/" + url.PathEscape(ws) + "/imports/" + url.PathEscape(job.ID)
	tick := time.NewTicker(jobRefresh)
	defer tick.Stop()
	for job.State != "done" && job.State != "failed" {
		<-tick.C
		if err := r.call("GET", path, nil, &job); err != nil {
			return job, err
		}
		bar.ChangeMax64(max(job.BytesTotal, 1))
		bar.Describe(fmt.Sprintf("%s: processing, %d rows", job.FileName, job.Rows))
		_ = bar.Set64(job.BytesRead)
	}
	return job, nil
}

// day shortens an ISO timestamp to its date.
func day(ts string) string {
	if len(ts) >= 10 {
		return ts[:10]
	}
	return ts
}
