package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

const pauseVar = "DEBUG_IMPORT_PAUSE_AT="

func pausedAt(step string) string { return "import paused at step " + step }

// When the server a file was handed to dies in the middle of it, the command says the file was
// not imported and exits non-zero.
func TestImportCommandFailsWhenTheServerDiesMidFile(t *testing.T) {
	dir := t.TempDir()
	server, _ := serverProc(t, dir, pauseVar+warehouse.StepStaged)
	abs, _ := filepath.Abs(sample)
	cmd := startProc(t, dir, nil, "import", "--workspace", "ws-die", abs)
	server.waitFor(t, pausedAt(warehouse.StepStaged))
	server.kill()
	<-cmd.exited
	if code := cmd.cmd.ProcessState.ExitCode(); code == 0 {
		t.Fatalf("the command exited 0 although its server died mid-file:\n%s", cmd.Output())
	}
	if out := cmd.Output(); !strings.Contains(out, "FAILED") || !strings.Contains(out, "not imported") {
		t.Fatalf("the command does not say the file was not imported:\n%s", out)
	}
}

// signUpPersonal signs a user up on a server process and returns the client and workspace.
func signUpPersonal(t *testing.T, app *testkit.App, email string) (*testkit.Client, string) {
	t.Helper()
	c := app.SignUp(t, email, "password123")
	var list []map[string]any
	if err := json.Unmarshal(c.Do("GET", "/api/workspaces", nil).Body, &list); err != nil || len(list) == 0 {
		t.Fatalf("workspaces: %v", err)
	}
	return c, list[0]["id"].(string)
}

func jobOf(t *testing.T, body []byte) string {
	t.Helper()
	var out struct {
		Jobs []struct {
			ID string `json:"id"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(body, &out); err != nil || len(out.Jobs) != 1 {
		t.Fatalf("upload answer: %s", body)
	}
	return out.Jobs[0].ID
}

// waitJob long-polls a job until it is done or failed.
func waitJob(t *testing.T, c *testkit.Client, ws, id string) map[string]any {
	t.Helper()
	for range 20 {
		job := c.Do("GET", "/api/trends/"+ws+"/imports/"+id+"?wait=true", nil).JSON(t)
		if job["state"] == "done" || job["state"] == "failed" {
			return job
		}
	}
	t.Fatalf("job %s never ended", id)
	return nil
}

// An upload whose server is killed mid-import is resumed at the next start and still listed;
// the upload temporaries and DuckDB spill files the killed process left are removed.
func TestUploadSurvivesAKilledServer(t *testing.T) {
	dir := t.TempDir()
	server, app := serverProc(t, dir, pauseVar+warehouse.StepStaged)
	c, ws := signUpPersonal(t, app, "seller@example.com")
	res, body := uploadFile(t, c, app, ws, sample)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %d %s", res.StatusCode, body)
	}
	id := jobOf(t, body)
	server.waitFor(t, pausedAt(warehouse.StepStaged))
	server.kill()
	stale := filepath.Join(dir, "uploads", "upload-left-by-a-killed-request")
	spill := filepath.Join(dir, "trends.duckdb.tmp", "duckdb_temp_storage-4.tmp")
	for _, f := range []string{stale, spill} {
		os.MkdirAll(filepath.Dir(f), 0o700)
		if err := os.WriteFile(f, []byte("left behind"), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	_, app = serverProc(t, dir)
	c, _ = signIn(t, app, "seller@example.com")
	if job := waitJob(t, c, ws, id); job["state"] != "done" {
		t.Fatalf("the resumed job: %v", job)
	}
	var list struct {
		Jobs []map[string]any `json:"jobs"`
	}
	json.Unmarshal(c.Do("GET", "/api/trends/"+ws+"/imports", nil).Body, &list)
	if len(list.Jobs) != 1 || list.Jobs[0]["id"] != id || list.Jobs[0]["state"] != "done" {
		t.Fatalf("GET /imports after the restart: %v", list.Jobs)
	}
	for _, f := range []string{stale, spill} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s was not removed at start-up (%v)", f, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "uploads", "*")); len(left) != 0 {
		t.Errorf("upload temporaries left after the job ended: %v", left)
	}
}

func signIn(t *testing.T, app *testkit.App, email string) (*testkit.Client, string) {
	t.Helper()
	c := app.Client(t)
	if res := c.Do("POST", "/api/auth/sign-in/email", map[string]any{"email": email, "password": "password123"}); res.Status != http.StatusOK {
		t.Fatalf("sign-in: %d %s", res.Status, res.Body)
	}
	return c, ""
}

// A user whose queue is full gets 429 at once, before the server reads the body (here a body
// that never ends), while the running import holds the worker.
func TestFullQueueAnswersAtOnce(t *testing.T) {
	dir := t.TempDir()
	server, app := serverProc(t, dir, pauseVar+warehouse.StepStaged, "IMPORT_QUEUE_PER_USER=1")
	c, ws := signUpPersonal(t, app, "busy@example.com")
	if res, body := uploadFile(t, c, app, ws, sample); res.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %d %s", res.StatusCode, body)
	}
	server.waitFor(t, pausedAt(warehouse.StepStaged))

	// The request is written by hand on a connection: headers and the start of a body that
	// never ends (Go's client would wait for the body to be written before giving up).
	u, _ := url.Parse(app.URL)
	var cookies []string
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/trends/%s/imports HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nCookie: %s\r\n"+
		"Content-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n", ws, u.Host, app.URL, strings.Join(cookies, "; "))
	part := "--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"endless.csv\"\r\n\r\nSearch Term,"
	fmt.Fprintf(conn, "%x\r\n%s\r\n", len(part), part)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the full queue did not answer at once: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429", res.StatusCode)
	}
}

// waitRunning polls the job until it has staged rows.
func waitRunning(t *testing.T, c *testkit.Client, ws, id string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		job := c.Do("GET", "/api/trends/"+ws+"/imports/"+id, nil).JSON(t)
		if job["state"] == "running" && job["rows"].(float64) > 0 {
			return
		}
		if job["state"] == "done" || job["state"] == "failed" {
			t.Fatalf("the job ended before it could be interrupted: %v", job)
		}
	}
	t.Fatal("the job never started")
}

// A cancel stops a running import within a second; SIGTERM stops the server within a few
// seconds with the running upload recorded, and the next start imports it.
func TestCancelAndGracefulStop(t *testing.T) {
	dir := t.TempDir()
	big := bigWeekFile(t, 300_000)
	server, app := serverProc(t, dir)
	c, ws := signUpPersonal(t, app, "stop@example.com")

	_, body := uploadFile(t, c, app, ws, big)
	id := jobOf(t, body)
	waitRunning(t, c, ws, id)
	started := time.Now()
	if res := c.Do("DELETE", "/api/trends/"+ws+"/imports/"+id, nil); res.Status != http.StatusNoContent {
		t.Fatalf("cancel: %d %s", res.Status, res.Body)
	}
	job := waitJob(t, c, ws, id)
	if took := time.Since(started); job["state"] != "failed" || took > time.Second {
		t.Fatalf("after the cancel, in %s: %v", took, job)
	}
	if sets := c.Do("GET", "/api/trends/"+ws+"/datasets", nil).JSON(t)["datasets"].([]any); len(sets) != 0 {
		t.Fatalf("the cancelled import left a dataset: %v", sets)
	}

	_, body = uploadFile(t, c, app, ws, big)
	id = jobOf(t, body)
	waitRunning(t, c, ws, id)
	started = time.Now()
	server.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-server.exited:
	case <-time.After(5 * time.Second):
		t.Fatalf("the server did not stop within 5 s of SIGTERM:\n%s", server.Output())
	}
	t.Logf("stopped in %s", time.Since(started))
	if code := server.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit code %d:\n%s", code, server.Output())
	}
	_, app = serverProc(t, dir)
	c, _ = signIn(t, app, "stop@example.com")
	if job := waitJob(t, c, ws, id); job["state"] != "done" || len(job["results"].([]any)) != 1 || job["rows"].(float64) < 200_000 {
		t.Fatalf("the upload stopped by SIGTERM, after the restart: %v", job)
	}
}

// A kill -9 at each step of an import's commit, and of the background work after it, leaves
// the dataset exactly as before or exactly as after: the export has the latest week's terms
// once each, and no week is lost.
func TestKillAtEveryCommitStep(t *testing.T) {
	weeks := func(names ...string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i], _ = filepath.Abs("../trends/warehouse/testdata/US_Top_Search_Terms_Simple_Week_2026_" + n + ".csv")
		}
		return out
	}
	base := weeks("03_07", "03_14")
	for _, tc := range []struct{ name, file string }{
		{"new week", weeks("03_21")[0]},
		{"replaced latest week", base[1]},
	} {
		for _, step := range []string{warehouse.StepStaged, warehouse.StepLoaded, warehouse.StepMeasures, warehouse.StepCommitted,
			warehouse.StepBackground, warehouse.StepCopy} {
			t.Run(tc.name+"/"+step, func(t *testing.T) {
				dir := t.TempDir()
				if out, err := runBinary(t, dir, nil, append([]string{"import", "--workspace", "ws"}, base...)...); err != nil {
					t.Fatalf("baseline: %v\n%s", err, out)
				}
				before := exportState(t, dir)
				cmd := startProc(t, dir, []string{pauseVar + step}, "import", "--workspace", "ws", tc.file)
				cmd.waitFor(t, pausedAt(step))
				cmd.kill()
				after := exportState(t, dir)
				if !slices.Equal(after.periods, before.periods) && !slices.Equal(after.periods, union(before.periods, tc.file)) {
					t.Fatalf("periods %v: neither before (%v) nor after", after.periods, before.periods)
				}
				if after.dupes != 0 || after.exported != after.latestRows {
					t.Fatalf("export after the kill: %d rows for a latest week of %d (%d duplicated terms)", after.exported, after.latestRows, after.dupes)
				}
				// And the next import over it works and leaves the same shape.
				if out, err := runBinary(t, dir, nil, "import", "--workspace", "ws", tc.file); err != nil {
					t.Fatalf("import after the kill: %v\n%s", err, out)
				}
				final := exportState(t, dir)
				if final.dupes != 0 || final.exported != final.latestRows || len(final.periods) != len(union(before.periods, tc.file)) {
					t.Fatalf("after importing again: %+v", final)
				}
			})
		}
	}
}

// union is the periods after importing file: its week added to them, if new.
func union(periods []string, file string) []string {
	name := strings.TrimSuffix(filepath.Base(file), ".csv")
	week := strings.ReplaceAll(name[len(name)-10:], "_", "-")
	out := slices.Clone(periods)
	for _, p := range periods {
		if strings.HasPrefix(p, week) {
			return out
		}
	}
	out = append(out, week)
	slices.Sort(out)
	return out
}

type exported struct {
	periods              []string // end dates of the periods (the file names' dates)
	exported, latestRows int
	dupes                int
}

// exportState opens the store as the server would and reads its periods and the terms export.
func exportState(t *testing.T, dir string) exported {
	t.Helper()
	ctx := context.Background()
	w, err := warehouse.Open(ctx, dir, "512MB")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sets, err := w.Datasets(ctx, "ws")
	if err != nil || len(sets) != 1 {
		t.Fatalf("datasets %v %v", sets, err)
	}
	var e exported
	rows, err := w.DB().QueryContext(ctx, `select strftime(end_date, '%Y-%m-%d'), rows from period where dataset_id = ? order by period_idx`, sets[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var end string
		if err := rows.Scan(&end, &e.latestRows); err != nil {
			t.Fatal(err)
		}
		e.periods = append(e.periods, end)
	}
	rows.Close()
	seen := map[string]bool{}
	err = w.ExportTerms(ctx, &sets[0], warehouse.ExploreQuery{Window: 1}, func(r warehouse.TermRow) error {
		e.exported++
		if seen[r.Term] {
			e.dupes++
		}
		seen[r.Term] = true
		return nil
	})
	if err != nil {
		t.Fatal(fmt.Errorf("export: %w", err))
	}
	return e
}
