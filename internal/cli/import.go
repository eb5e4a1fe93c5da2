package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schollz/progressbar/v3"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/trends/localimport"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// importCmd bulk-loads report files: `sellertrends import [--workspace W] [--marketplace M]
// [--period P] [--lenient] FILE...`. When a server runs on the same DATA_DIR it holds the trends
// store (DuckDB lets one process open it), so the files go to that server over its import socket
// (localimport); otherwise the command opens the store itself. Either way it shows a progress
// bar per report and a line per result.
func importCmd(cfg *config.Config, args []string, out io.Writer) error {
	if hasServerFlag(args) { // to a remote server: remote_import.go
		return remoteImportCmd(cfg, args, out)
	}
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	workspace := fs.String("workspace", "", "workspace id (see GET /api/workspaces; personal-<user id> for a user's own)")
	market := fs.String("marketplace", "", "marketplace when the file does not say (amazon.com, US, walmart.com …)")
	period := fs.String("period", "", "period when the file does not say (2026-04-05..2026-04-11, 2026-04, 2026-Q1)")
	lenient := fs.Bool("lenient", false, "skip bad rows and report them instead of failing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *workspace == "" || fs.NArg() == 0 {
		return fmt.Errorf("usage: sellertrends import --workspace W [--marketplace M] [--period P] [--lenient] FILE [FILE ...]")
	}
	if *period != "" {
		if _, err := report.ParsePeriod(*period); err != nil {
			return err
		}
	}
	imp, err := newFileImporter(context.Background(), cfg, out)
	if err != nil {
		return err
	}
	defer imp.close()
	failed := 0
	for _, path := range fs.Args() {
		abs, err := filepath.Abs(path)
		if err == nil {
			view := &progressView{out: out}
			err = imp.send(localimport.Request{Workspace: *workspace, Path: abs, Marketplace: *market, Period: *period, Lenient: *lenient}, view.show)
			view.finish()
		}
		if err != nil {
			fmt.Fprintf(out, "%s: FAILED: %v\n", path, err)
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files failed; the others were imported", failed, fs.NArg())
	}
	return nil
}

// fileImporter imports one file at a time through a running server's socket, or into the store
// opened here. When the server stops during a bulk load, the remaining files go into the store
// (opened once the server has let go of it).
type fileImporter struct {
	ctx       context.Context
	cfg       *config.Config
	out       io.Writer
	viaServer bool
	wh        *warehouse.Warehouse
}

func newFileImporter(ctx context.Context, cfg *config.Config, out io.Writer) (*fileImporter, error) {
	f := &fileImporter{ctx: ctx, cfg: cfg, out: out}
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
	if f.wh == nil {
		if err := f.openStore(); err != nil {
			return err // the server may still hold the store; the next file tries again
		}
	}
	return importReports(f.ctx, f.wh, req, on)
}

func (f *fileImporter) openStore() error {
	wh, err := warehouse.Open(f.ctx, f.cfg.DataDir, f.cfg.DuckDBMemory)
	if err != nil {
		return err
	}
	wh.SetWriteMemory(f.cfg.DuckDBWriteMemory)
	f.wh = wh
	return nil
}

func (f *fileImporter) close() {
	if f.wh != nil {
		f.wh.Close()
	}
}

// importReports imports every report of one file (a zip may hold several), reporting progress
// and a summary line per report. The server runs it for socket requests too.
func importReports(ctx context.Context, wh *warehouse.Warehouse, req localimport.Request, emit func(localimport.Event)) error {
	opts := report.Options{Marketplace: req.Marketplace, Lenient: req.Lenient}
	if req.Period != "" {
		p, err := report.ParsePeriod(req.Period)
		if err != nil {
			return err
		}
		opts.Period = &p
	}
	sum, err := fileSHA256(req.Path)
	if err != nil {
		return err
	}
	srcs, err := report.Open(req.Path, opts)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	for _, src := range srcs {
		name := src.Meta().Name
		rec, err := wh.Import(ctx, src, warehouse.ImportOptions{Workspace: req.Workspace, ImportedBy: "cli", SHA256: sum, Lenient: req.Lenient,
			Progress: func(rows int64) {
				_, read, total := src.Progress()
				emit(localimport.Event{Name: name, Rows: rows, Read: read, Total: total})
			}})
		if err != nil {
			return err
		}
		_, skipped := src.Skipped()
		emit(localimport.Event{Name: name, Done: fmt.Sprintf("%s: %s %s, %d rows, deepest rank %d, %d skipped, replaced: %v",
			name, src.Meta().Marketplace, rec.Period, rec.Rows, rec.DeepestRank, skipped, rec.Replaced)})
	}
	return nil
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
