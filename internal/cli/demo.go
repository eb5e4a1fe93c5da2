package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/trends"
	"github.com/sellertrends/sellertrends/internal/trends/demo"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// demoCmd builds the demo workspace: `sellertrends demo [--terms N] [--weeks N] [--seed N] [--direct]`.
// --direct writes the rows with set-based SQL instead of the import path: the way to build the
// 3M x 156 benchmark set in minutes.
func demoCmd(cfg *config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	size := demo.DefaultSize(time.Now())
	fs.IntVar(&size.Terms, "terms", size.Terms, "terms per week")
	fs.IntVar(&size.Weeks, "weeks", size.Weeks, "weeks of history")
	seed := fs.Uint64("seed", size.Seed, "random seed (the same seed gives the same data)")
	workspace := fs.String("workspace", trends.DemoWorkspace, "workspace to write into")
	direct := fs.Bool("direct", false, "generate straight into the store (for large sets; the workspace must be empty)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	size.Seed = *seed
	if size.Terms < 10 || size.Weeks < 1 {
		return fmt.Errorf("--terms must be at least 10 and --weeks at least 1")
	}
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, cfg.DataDir, cfg.DuckDBMemory)
	if err != nil {
		return err
	}
	wh.SetWriteMemory(cfg.DuckDBWriteMemory)
	defer wh.Close()
	start := time.Now()
	build := demo.Build
	if *direct {
		build = demo.BuildDirect
	}
	err = build(ctx, wh, *workspace, size, func(w, n int) {
		fmt.Fprintf(out, "\rbuilding %s: week %d of %d", *workspace, w, n)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nbuilt %d terms x %d weeks in %s\n", size.Terms, size.Weeks, time.Since(start).Round(time.Millisecond))
	return nil
}
