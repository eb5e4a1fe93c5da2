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
	ctx := context.Background()
	send, closeStore, err := importer(ctx, cfg, out)
	if err != nil {
		return err
	}
	defer closeStore()
	failed := 0
	for _, path := range fs.Args() {
		abs, err := filepath.Abs(path)
		if err == nil {
			view := &progressView{out: out}
			err = send(localimport.Request{Workspace: *workspace, Path: abs, Marketplace: *market, Period: *period, Lenient: *lenient}, view.show)
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

// importer returns how to import one file: through a running server's socket, or into the
// store opened here.
func importer(ctx context.Context, cfg *config.Config, out io.Writer) (func(localimport.Request, func(localimport.Event)) error, func(), error) {
	if _, err := os.Stat(filepath.Join(cfg.DataDir, localimport.SocketName)); err == nil {
		if conn, err := localimport.Dial(cfg.DataDir); err == nil {
			conn.Close()
			fmt.Fprintln(out, "a server is running on this data directory: it imports the files")
			send := func(req localimport.Request, on func(localimport.Event)) error {
				conn, err := localimport.Dial(cfg.DataDir)
				if err != nil {
					return err
				}
				return localimport.Send(conn, req, on)
			}
			return send, func() {}, nil
		}
	}
	wh, err := warehouse.Open(ctx, cfg.DataDir, cfg.DuckDBMemory)
	if err != nil {
		return nil, nil, err
	}
	wh.SetWriteMemory(cfg.DuckDBWriteMemory)
	send := func(req localimport.Request, on func(localimport.Event)) error {
		return importReports(ctx, wh, req, on)
	}
	return send, func() { wh.Close() }, nil
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
