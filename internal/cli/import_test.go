package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/demo"
	"github.com/sellertrends/sellertrends/internal/trends/localimport"
)

const sample = "../trends/warehouse/testdata/US_Top_Search_Terms_Simple_Week_2026_03_07.csv"

func testConfig(t *testing.T) *config.Config {
	t.Helper()
	vars := map[string]string{"DATA_DIR": t.TempDir(), "AUTH_SECRET": strings.Repeat("s", 32)}
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startServer builds the server on cfg's data directory after a tiny demo, so the server does
// not build the default one in the background.
func startServer(t *testing.T, cfg *config.Config) *App {
	t.Helper()
	if err := demoCmd(cfg, []string{"--terms", "10", "--weeks", "1"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	app, err := buildApp(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// `sellertrends import` works with the server running (the files go over its socket) and
// without it (the command opens the store itself), with the same results.
func TestImportCommandWithAndWithoutARunningServer(t *testing.T) {
	cfg := testConfig(t)
	app := startServer(t, cfg)
	closed := false
	defer func() {
		if !closed {
			app.Close()
		}
	}()
	var out strings.Builder
	if err := importCmd(cfg, []string{"--workspace", "ws-cli", sample}, &out); err != nil {
		t.Fatalf("import beside the server: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "a server is running") || !strings.Contains(out.String(), "rows, deepest rank") || !strings.Contains(out.String(), "replaced: false") {
		t.Fatalf("output:\n%s", out.String())
	}
	// A bad file fails with the parser's message, relayed from the server.
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("not,a,report\n1,2,3\n"), 0o600)
	out.Reset()
	if err := importCmd(cfg, []string{"--workspace", "ws-cli", bad}, &out); err == nil || !strings.Contains(out.String(), "FAILED") {
		t.Fatalf("a bad file was accepted: %v\n%s", err, out.String())
	}

	app.Close()
	closed = true
	if _, err := os.Stat(filepath.Join(cfg.DataDir, "import.sock")); !os.IsNotExist(err) {
		t.Fatalf("the socket outlived the server: %v", err)
	}
	out.Reset()
	if err := importCmd(cfg, []string{"--workspace", "ws-cli", sample}, &out); err != nil {
		t.Fatalf("import without the server: %v\n%s", err, out.String())
	}
	// The period the server imported is in the store the command opened: this is a replacement.
	if strings.Contains(out.String(), "a server is running") || !strings.Contains(out.String(), "replaced: true") {
		t.Fatalf("output:\n%s", out.String())
	}
	// All three went through the one job runner, recorded as the command's jobs, whichever
	// process ran them.
	st, err := store.Open(context.Background(), cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	jobs, err := st.ImportJobs(context.Background(), "ws-cli", 10)
	if err != nil || len(jobs) != 3 {
		t.Fatalf("recorded jobs: %+v %v", jobs, err)
	}
	states := map[string]int{}
	for _, j := range jobs {
		if j.Source != "cli" {
			t.Errorf("job %s source %q", j.ID, j.Source)
		}
		states[j.State]++
	}
	if states["done"] != 2 || states["failed"] != 1 {
		t.Fatalf("states %v, want two done and one failed", states)
	}
}

// Closing the connection (Ctrl-C on the command) cancels the server's import, which leaves
// nothing behind: importing the same file afterwards is not a replacement.
func TestImportSocketCancelLeavesNothing(t *testing.T) {
	cfg := testConfig(t)
	big := filepath.Join(t.TempDir(), "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	g := demo.New(demo.Size{Terms: 200_000, Weeks: 3, Seed: 3, End: time.Date(2026, 4, 12, 0, 0, 0, 0, time.UTC)})
	if err := demo.WriteTSTCSV(f, g.Week(2)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	app := startServer(t, cfg)
	defer app.Close()

	conn, err := localimport.Dial(cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	err = localimport.Send(conn, localimport.Request{Workspace: "ws-cancel", Path: big}, func(e localimport.Event) {
		if e.Rows > 0 {
			conn.Close() // as Ctrl-C would
		}
	})
	if err == nil {
		t.Fatal("the send finished although the connection was closed mid-import")
	}
	// Imports take the store's write lock in turn, so this one starts after the cancelled one ended.
	var out strings.Builder
	if err := importCmd(cfg, []string{"--workspace", "ws-cancel", big}, &out); err != nil {
		t.Fatalf("import after the cancel: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "replaced: false") {
		t.Fatalf("the cancelled import left its period behind:\n%s", out.String())
	}
}

// When the server stops in the middle of a bulk load, the remaining files are imported into the
// store opened by the command instead of failing.
func TestImportCarriesOnWhenTheServerStops(t *testing.T) {
	cfg := testConfig(t)
	app := startServer(t, cfg)
	var out strings.Builder
	st, err := store.Open(context.Background(), cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	imp, err := newFileImporter(context.Background(), cfg, st, &out)
	if err != nil {
		app.Close()
		t.Fatal(err)
	}
	defer imp.close()
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	first := localimport.Request{Workspace: "ws-stop", Path: abs(sample)}
	if err := imp.send(first, func(localimport.Event) {}); err != nil {
		app.Close()
		t.Fatal(err)
	}
	app.Close()
	second := localimport.Request{Workspace: "ws-stop", Path: abs("../trends/warehouse/testdata/US_Top_Search_Terms_Simple_Week_2026_03_14.csv")}
	if err := imp.send(second, func(localimport.Event) {}); err != nil {
		t.Fatalf("the file after the server stopped: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "a server is running") || !strings.Contains(out.String(), "the server has stopped") {
		t.Fatalf("output:\n%s", out.String())
	}
	sets, err := imp.wh.Datasets(context.Background(), "ws-stop")
	if err != nil || len(sets) != 1 || sets[0].Periods != 2 {
		t.Fatalf("want one dataset with both weeks (the server's and the command's), got %+v, %v", sets, err)
	}
}
