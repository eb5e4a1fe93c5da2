package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// importCmd bulk-loads report files: `sellertrends import [--workspace W] [--marketplace M]
// [--period P] [--lenient] FILE...`. It opens the trends store itself; DuckDB lets one process
// write, so while the server runs it says so and points to the web upload instead.
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
	opts := report.Options{Marketplace: *market, Lenient: *lenient}
	if *period != "" {
		p, err := report.ParsePeriod(*period)
		if err != nil {
			return err
		}
		opts.Period = &p
	}
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, cfg.DataDir, cfg.DuckDBMemory)
	if err != nil {
		return fmt.Errorf("%w\nstop the server or upload the files in the web app (Imports)", err)
	}
	defer wh.Close()
	failed := 0
	for _, path := range fs.Args() {
		if err := importFile(ctx, wh, path, *workspace, opts, out); err != nil {
			fmt.Fprintf(out, "%s: FAILED: %v\n", path, err)
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files failed; the others were imported", failed, fs.NArg())
	}
	return nil
}

func importFile(ctx context.Context, wh *warehouse.Warehouse, path, workspace string, opts report.Options, out io.Writer) error {
	sum, err := fileSHA256(path)
	if err != nil {
		return err
	}
	srcs, err := report.Open(path, opts)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	for _, src := range srcs {
		_, _, total := src.Progress()
		bar := progressbar.NewOptions64(total, progressbar.OptionSetWriter(out), progressbar.OptionShowBytes(true),
			progressbar.OptionSetDescription(src.Meta().Name), progressbar.OptionClearOnFinish())
		rec, err := wh.Import(ctx, src, warehouse.ImportOptions{Workspace: workspace, ImportedBy: "cli", SHA256: sum, Lenient: opts.Lenient,
			Progress: func(rows int64) {
				_, read, _ := src.Progress()
				bar.Describe(fmt.Sprintf("%s: %d rows", src.Meta().Name, rows))
				bar.Set64(read)
			}})
		bar.Finish()
		if err != nil {
			return err
		}
		_, skipped := src.Skipped()
		fmt.Fprintf(out, "%s: %s %s, %d rows, deepest rank %d, %d skipped, replaced: %v\n",
			src.Meta().Name, src.Meta().Marketplace, rec.Period, rec.Rows, rec.DeepestRank, skipped, rec.Replaced)
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
