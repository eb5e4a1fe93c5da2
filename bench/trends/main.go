// Command trends-bench measures the trends engine: it builds a generated dataset of -terms x
// -weeks straight into a fresh store, asks the questions the screens ask, and imports one large
// weekly CSV next to DuckDB's own read_csv of the same file. It prints p50/p95 per question and
// the import ratio. Run it through `make bench-trends`; it is not a test.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/demo"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

func main() {
	terms := flag.Int("terms", 100000, "terms per week")
	weeks := flag.Int("weeks", 52, "weeks")
	csvRows := flag.Int("csv-rows", 1000000, "rows of the weekly CSV imported for the import benchmark")
	mem := flag.String("memory", "1GB", "DuckDB memory limit")
	pgURL := flag.String("postgres", "postgres://root@127.0.0.1:5432/test", "PostgreSQL to compare with (empty: skip)")
	flag.Parse()
	dir, _ := os.MkdirTemp("", "trends-bench-")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, dir, *mem)
	must(err)
	defer wh.Close()

	fmt.Printf("date %s, %d cores; dataset %d terms x %d weeks (%d term-weeks), DuckDB memory_limit %s\n",
		time.Now().UTC().Format("2006-01-02 15:04Z"), numCPU(), *terms, *weeks, *terms**weeks, *mem)
	start := time.Now()
	must(demo.Build(ctx, wh, "bench", demo.Size{Terms: *terms, Weeks: *weeks, Seed: 1, End: time.Now()}, nil))
	fmt.Printf("build: %s\n", time.Since(start).Round(time.Millisecond))
	_, _ = wh.DB().ExecContext(ctx, "checkpoint")
	if st, err := os.Stat(filepath.Join(dir, "trends.duckdb")); err == nil {
		rows := float64(*terms * *weeks)
		fmt.Printf("on disk: %.0f MB, %.0f MB per million term-weeks\n", float64(st.Size())/1e6, float64(st.Size())/1e6/(rows/1e6))
	}
	ds, err := wh.Datasets(ctx, "bench")
	must(err)
	d := &ds[0]

	page, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Sort: "rank", Limit: 1000, Window: 4})
	must(err)
	names := make([]string, len(page.Rows))
	for i, r := range page.Rows {
		names[i] = r.Term
	}
	r := rand.New(rand.NewPCG(1, 2))
	fmt.Println("| question | p50 ms | p95 ms |")
	fmt.Println("|---|---|---|")
	ours := map[string]float64{}
	ours["history"] = report1("term history (1 term)", 100, func() {
		_, err := wh.TermHistories(ctx, d, []string{names[r.IntN(len(names))]})
		must(err)
	})
	report1("term history (10 terms)", 30, func() {
		pick := make([]string, 10)
		for i := range pick {
			pick[i] = names[r.IntN(len(names))]
		}
		_, err := wh.TermHistories(ctx, d, pick)
		must(err)
	})
	subs := []string{"mat", "for women", "led", "black", "kids", "bottle", "2 pack", "heavy"}
	ours["explore"] = report1("explore: substring + sort by 4-period change, 100 rows", 40, func() {
		_, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Search: subs[r.IntN(len(subs))], Sort: "change4", Desc: true, Limit: 100, Window: 4})
		must(err)
	})
	ours["overview"] = report1("overview (risers, fallers, new, breakouts, coming-up)", 20, func() {
		_, err := wh.Overview(ctx, d, 4)
		must(err)
	})
	if *pgURL != "" {
		pg, err := comparePostgres(ctx, wh, dir, *pgURL, d.ID, names, subs)
		if err != nil {
			fmt.Println("PostgreSQL comparison failed:", err)
		} else {
			fmt.Println("| question | sellertrends p50 ms | PostgreSQL p50 ms | speed-up |")
			fmt.Println("|---|---|---|---|")
			for _, q := range []string{"history", "explore", "overview"} {
				fmt.Printf("| %s | %.1f | %.1f | %.1fx |\n", q, ours[q], pg[q], pg[q]/ours[q])
			}
		}
	}
	benchImport(ctx, wh, dir, *csvRows)
	fmt.Printf("peak RSS of this process: %s\n", peakRSS())
}

// report1 prints a question's p50 and p95 and returns the p50 in milliseconds.
func report1(name string, n int, fn func()) float64 {
	times := make([]time.Duration, n)
	for i := range n {
		t := time.Now()
		fn()
		times[i] = time.Since(t)
	}
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	fmt.Printf("| %s | %.1f | %.1f |\n", name, ms(times[n/2]), ms(times[n*95/100]))
	return ms(times[n/2])
}

// medianMS times fn n times and returns the median in milliseconds (-1 on error).
func medianMS(n int, fn func() error) float64 {
	times := make([]time.Duration, n)
	for i := range n {
		t := time.Now()
		if err := fn(); err != nil {
			fmt.Fprintln(os.Stderr, "postgres:", err)
			return -1
		}
		times[i] = time.Since(t)
	}
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	return ms(times[n/2])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchImport writes a weekly Top Search Terms CSV and imports it, then times DuckDB's bare
// read_csv of the same file in the same run, and prints the ratio.
func benchImport(ctx context.Context, wh *warehouse.Warehouse, dir string, rows int) {
	path := filepath.Join(dir, "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	writeCSV(path, rows)
	st, _ := os.Stat(path)
	start := time.Now()
	srcs, err := report.Open(path, report.Options{})
	must(err)
	_, err = wh.Import(ctx, srcs[0], warehouse.ImportOptions{Workspace: "import-bench", ImportedBy: "bench"})
	must(err)
	srcs[0].Close()
	ours := time.Since(start)
	start = time.Now()
	// Materialise every column, so DuckDB parses the whole file as our import must.
	_, err = wh.DB().ExecContext(ctx, `create temp table bare_parse as select * from read_csv(?, skip=1, header=true)`, path)
	must(err)
	bare := time.Since(start)
	fmt.Printf("import of a %d-row weekly CSV (%.0f MB): %s; DuckDB read_csv alone: %s; ratio %.1fx\n",
		rows, float64(st.Size())/1e6, ours.Round(time.Millisecond), bare.Round(time.Millisecond), ours.Seconds()/bare.Seconds())
}

func writeCSV(path string, rows int) {
	f, err := os.Create(path)
	must(err)
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`"Reporting Range=[""Weekly""]","Select week=[""Week 15 | 2026-04-05 - 2026-04-11 2026""]",,,,,,,,,,,,,,,,,,,` + "\n")
	w.WriteString(`"Search Frequency Rank","Search Term","Top Clicked Brand #1","Top Clicked Brands #2","Top Clicked Brands #3","Top Clicked Category #1","Top Clicked Category #2","Top Clicked Category #3","Top Clicked Product #1: ASIN","Top Clicked Product #1: Product Title","Top Clicked Product #1: Click Share","Top Clicked Product #1: Conversion Share","Top Clicked Product #2: ASIN","Top Clicked Product #2: Product Title","Top Clicked Product #2: Click Share","Top Clicked Product #2: Conversion Share","Top Clicked Product #3: ASIN","Top Clicked Product #3: Product Title","Top Clicked Product #3: Click Share","Top Clicked Product #3: Conversion Share","Reporting Date"` + "\n")
	r := rand.New(rand.NewPCG(3, 4))
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(w, `"%d","search term %d %s","Brand%d","Brand%d","Brand%d","Home","Kitchen","","B0%08X","Product title %d, with a comma","%.2f","%.2f","B0%08X","Second product %d","%.2f","%.2f","B0%08X","Third product %d","%.2f","%.2f","4/11/2026"`+"\n",
			i, i, strings.Repeat("x", i%7), r.IntN(5000), r.IntN(5000), r.IntN(5000), r.Uint32(), i, r.Float64()*40, r.Float64()*40, r.Uint32(), i, r.Float64()*20, r.Float64()*20, r.Uint32(), i, r.Float64()*10, r.Float64()*10)
	}
	must(w.Flush())
	must(f.Close())
}

func peakRSS() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "unknown"
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(b), "processor\t:")
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "trends-bench:", err)
		os.Exit(1)
	}
}
