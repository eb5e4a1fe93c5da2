package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/schollz/progressbar/v3"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends"
	"github.com/sellertrends/sellertrends/internal/trends/localimport"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// importCmd bulk-loads report files: `sellertrends import [--workspace W] [--marketplace M]
// [--period P] [--lenient] FILE...`. When a server runs on the same DATA_DIR it holds the trends
// store (DuckDB lets one process open it), so the files go to that server over its import socket
// (localimport); otherwise the command opens the store itself. Either way each file is a job of
// the one job runner (trends.Jobs.ImportLocal), listed in GET /imports with its progress; this
// command only chooses the door and draws a progress bar per report and a line per result.
func importCmd(cfg *config.Config, args []string, out io.Writer) error {
	if hasServerFlag(args) { // to a remote server: remote_import.go
		return remoteImportCmd(cfg, args, out)
	}
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	workspace := fs.String("workspace", "", "workspace id or its owner's email (default: the only workspace; see `sellertrends workspaces`)")
	market := fs.String("marketplace", "", "marketplace when the file does not say (amazon.com, US, walmart.com …)")
	period := fs.String("period", "", "period when the file does not say (2026-04-05..2026-04-11, 2026-04, 2026-Q1)")
	lenient := fs.Bool("lenient", false, "skip bad rows and report them instead of failing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("usage: sellertrends import [--workspace W] [--marketplace M] [--period P] [--lenient] FILE [FILE ...]")
	}
	if *period != "" {
		if _, err := report.ParsePeriod(*period); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	ws, err := pickLocalWorkspace(ctx, st, *workspace)
	if err != nil {
		return err
	}
	imp, err := newFileImporter(ctx, cfg, st, out)
	if err != nil {
		return err
	}
	defer imp.close()
	failed := 0
	for _, path := range fs.Args() {
		abs, err := filepath.Abs(path)
		if err == nil {
			view := &progressView{out: out}
			err = imp.send(localimport.Request{Workspace: ws, Path: abs, Marketplace: *market, Period: *period, Lenient: *lenient}, view.show)
			view.finish()
		}
		if err != nil {
			fmt.Fprintf(out, "%s: FAILED: %v\n", path, err)
			failed++
		}
		if ctx.Err() != nil {
			break
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files failed; the others were imported", failed, fs.NArg())
	}
	return ctx.Err()
}

// fileImporter imports one file at a time through a running server's socket, or through a job
// runner over the store opened here. When the server stops during a bulk load, the remaining
// files go into the store (opened once the server has let go of it).
type fileImporter struct {
	ctx       context.Context
	cfg       *config.Config
	st        *store.Store
	out       io.Writer
	viaServer bool
	wh        *warehouse.Warehouse
	jobs      *trends.Jobs
}

func newFileImporter(ctx context.Context, cfg *config.Config, st *store.Store, out io.Writer) (*fileImporter, error) {
	f := &fileImporter{ctx: ctx, cfg: cfg, st: st, out: out}
	if conn, err := localimport.Dial(cfg.DataDir); err == nil {
		conn.Close()
		fmt.Fprintln(out, "a server is running on this data directory: it imports the files")
		f.viaServer = true
		return f, nil
	}
	return f, f.openStore()
}

func (f *fileImporter) send(req localimport.Request, on func(localimport.Event)) error {
	if f.viaServer {
		conn, err := localimport.Dial(f.cfg.DataDir)
		if err == nil {
			return localimport.Send(conn, req, on)
		}
		fmt.Fprintln(f.out, "the server has stopped: the remaining files are imported here")
		f.viaServer = false
	}
	if f.jobs == nil {
		if err := f.openStore(); err != nil {
			return err // the server may still hold the store; the next file tries again
		}
	}
	return f.jobs.ImportLocal(f.ctx, req, on)
}

func (f *fileImporter) openStore() error {
	wh, err := warehouse.Open(f.ctx, f.cfg.DataDir, f.cfg.DuckDBMemory)
	if err != nil {
		return err
	}
	wh.SetWriteMemory(f.cfg.DuckDBWriteMemory)
	if f.cfg.DebugImportPauseAt != "" {
		wh.OnStep(trends.PauseAt(f.cfg.DebugImportPauseAt))
	}
	f.wh = wh
	f.jobs = trends.NewJobs(trends.JobsConfig{Warehouse: wh, Store: f.st, DataDir: f.cfg.DataDir})
	f.jobs.Start()
	return nil
}

func (f *fileImporter) close() {
	if f.jobs != nil {
		f.jobs.Close()
	}
	if f.wh != nil && f.ctx.Err() == nil {
		// The derived tables (seasonality, the next week's inputs, the term-ordered copy) are
		// brought up to date before the command returns, as a server would after the import.
		f.wh.WaitBackground()
	}
	if f.wh != nil {
		f.wh.Close()
	}
}

// progressView draws a progress bar per report on the terminal and prints each summary.
type progressView struct {
	out  io.Writer
	name string
	bar  *progressbar.ProgressBar
}

func (v *progressView) show(e localimport.Event) {
	if e.Done != "" {
		v.finish()
		fmt.Fprintln(v.out, e.Done)
		return
	}
	if v.bar == nil || v.name != e.Name {
		v.finish()
		v.name = e.Name
		v.bar = progressbar.NewOptions64(e.Total, progressbar.OptionSetWriter(v.out), progressbar.OptionShowBytes(true),
			progressbar.OptionSetDescription(e.Name), progressbar.OptionClearOnFinish())
	}
	v.bar.Describe(fmt.Sprintf("%s: %d rows", e.Name, e.Rows))
	v.bar.Set64(e.Read)
}

func (v *progressView) finish() {
	if v.bar != nil {
		v.bar.Finish()
		v.bar = nil
	}
}
