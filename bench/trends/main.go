// Command trends-bench measures the trends engine: it builds a generated dataset of -terms x
// -weeks straight into a fresh store, asks the questions the screens ask, and imports one large
// weekly CSV next to DuckDB's own read_csv of the same file. It prints p50/p95 per question and
// the import ratio. Run it through `make bench-trends`; it is not a test.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/demo"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// workspace is where the set is built and the import benchmark imports.
var workspace string

// rebuildCopy says whether the import benchmark ends by timing a rebuild of the copy.
var rebuildCopy bool

// cpuProfile names the file the timed CSV import's CPU profile is written to ("": none).
var cpuProfile string

func main() {
	terms := flag.Int("terms", 100000, "terms per week")
	weeks := flag.Int("weeks", 52, "weeks")
	flag.StringVar(&workspace, "workspace", "demo", "workspace to build into (\"demo\": a server started with DATA_DIR=dir shows the set to every user)")
	keep := flag.String("dir", "", "keep the store in this directory and reuse it when it already holds the set (default: a temporary directory)")
	csvRows := flag.Bool("import", true, "import the week after the set from a generated weekly CSV (and its SP-API JSON) and compare with DuckDB's read_csv")
	spapi := flag.Bool("spapi", true, "also re-import the same week from its SP-API JSON")
	mem := flag.String("memory", "1GB", "DuckDB memory limit while answering and importing (the server's DUCKDB_MEMORY)")
	buildMem := flag.String("build-memory", "3GB", "DuckDB memory limit while generating the set")
	pgURL := flag.String("postgres", "postgres://root@127.0.0.1:5432/test", "PostgreSQL to compare with (empty: skip)")
	questions := flag.Bool("questions", true, "time the questions (and compare with PostgreSQL)")
	importMem := flag.String("import-memory", "1GB", "DuckDB memory limit while importing (the server's DUCKDB_IMPORT_MEMORY)")
	verbose := flag.Bool("v", false, "log each import step's time")
	history := flag.Bool("history", true, "bring the history and demand files up to date before timing (the questions read them; an import-only run may skip their ~45 minutes at 3M x 156)")
	flag.StringVar(&only, "only", "", "time only these questions (comma-separated: history, history10, explore, explore-prefix, overview, summary, product, explore-asin, explore-brand, brand-now, explore-category, brand, rootword, rootword-scan, explore-past)")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write the CSV import's CPU profile (Go's side only: DuckDB's C++ shows as cgo calls) to this file")
	flag.BoolVar(&rebuildCopy, "compact", true, "after the imports, time a rebuild of the term-ordered copy")
	flag.Parse()
	if *verbose {
		slog.SetLogLoggerLevel(slog.LevelDebug)
		log.SetFlags(log.LstdFlags | log.Lmicroseconds) // step times line up with CPU samples
	}
	dir := *keep
	if dir == "" {
		dir, _ = os.MkdirTemp("", "trends-bench-")
		defer os.RemoveAll(dir)
	}
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, dir, *mem)
	must(err)
	defer wh.Close()

	fmt.Printf("date %s, %d cores; dataset %d terms x %d weeks (%d term-weeks), DuckDB memory_limit %s\n",
		time.Now().UTC().Format("2006-01-02 15:04Z"), numCPU(), *terms, *weeks, *terms**weeks, *mem)
	size := demo.Size{Terms: *terms, Weeks: *weeks, Seed: 1, End: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)}
	wh.SetWriteMemory(*buildMem)
	if built, err := demo.Exists(ctx, wh, workspace); err != nil || !built {
		start := time.Now()
		must(demo.BuildDirect(ctx, wh, workspace, size, func(w, n int) {
			if w%10 == 0 || w == n {
				fmt.Fprintf(os.Stderr, "\rbuilding: week %d/%d (%s)", w, n, time.Since(start).Round(time.Second))
			}
		}))
		fmt.Fprintln(os.Stderr)
		fmt.Printf("build (generated straight into the store, measures, term-ordered copy): %s\n", time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Println("build: reusing the set in", dir)
		resumeBuild(ctx, wh)
	}
	start := time.Now()
	// As the server does once the store is open: a set built by older code gets the tables it
	// lacks beside the copy (term_lists.go) before anything is timed.
	must(wh.ResumeCopies(ctx))
	wh.WaitBackground()
	fmt.Printf("copy's side tables brought up to date: %s\n", time.Since(start).Round(time.Millisecond))
	printTopsSize(ctx, wh)
	start = time.Now()
	must(wh.RefreshASINIndex(ctx)) // as the server's background job keeps it after imports
	fmt.Printf("ASIN index brought up to date: %s\n", time.Since(start).Round(time.Millisecond))
	if *history {
		start = time.Now()
		must(wh.RefreshHistoryFiles(ctx)) // as the server's background job keeps them after imports
		fmt.Printf("history files brought up to date: %s (%d MB)\n", time.Since(start).Round(time.Millisecond), historyFilesSize(dir)>>20)
	}
	_, _ = wh.DB().ExecContext(ctx, "checkpoint")
	// The server warms term_stats after opening the store (2 s on the 3M set on machine J, both
	// cores); the questions are timed once that is done, as a running server answers them.
	wh.WarmLists()
	wh.WaitBackground()
	var bytes int64
	for _, f := range []string{"trends.duckdb", "trends-copy.duckdb"} { // the store and its term-ordered copies
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil {
			bytes += st.Size()
		}
	}
	rows := float64(*terms * *weeks)
	fmt.Printf("on disk: %.0f MB, %.0f MB per million term-weeks\n", float64(bytes)/1e6, float64(bytes)/1e6/(rows/1e6))
	ds, err := wh.Datasets(ctx, workspace)
	must(err)
	d := &ds[0]
	if *questions {
		compare(ctx, wh, dir, *pgURL, d)
	}
	if *csvRows {
		wh.SetWriteMemory(*importMem)
		benchImport(ctx, wh, dir, size, *spapi, *mem, *importMem)
	}
}

// compare asks the questions here and, when pgURL is set, in PostgreSQL, and prints both.
func compare(ctx context.Context, wh *warehouse.Warehouse, dir, pgURL string, d *warehouse.Dataset) {
	ours, names, subs := askQuestions(ctx, wh, d)
	if pgURL != "" {
		pg, err := comparePostgres(ctx, wh, dir, pgURL, d.ID, names, subs)
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
}

// printTopsSize prints the rows and the blocks of the term_tops tables (warehouse/term_tops.go)
// in the copy file, once checkpointed.
func printTopsSize(ctx context.Context, wh *warehouse.Warehouse) {
	_, err := wh.DB().ExecContext(ctx, "checkpoint term_copy") // a fresh build is in the log until then
	must(err)
	rows, err := wh.DB().QueryContext(ctx, `select table_name, estimated_size from duckdb_tables()
		where database_name = 'term_copy' and table_name like 'term\_tops%' escape '\'`)
	must(err)
	var n, blocks int64
	var names []string
	for rows.Next() {
		var name string
		var size int64
		must(rows.Scan(&name, &size))
		names, n = append(names, name), n+size
	}
	rows.Close()
	for _, name := range names {
		var b int64
		must(wh.DB().QueryRowContext(ctx, `select count(distinct block_id) from pragma_storage_info('term_copy.`+name+`') where block_id >= 0`).Scan(&b))
		blocks += b
	}
	fmt.Printf("term tops (product and brand pages): %d rows, %d blocks of 64 KB (%.1f MB)\n", n, blocks, float64(blocks)/16)
}

// resumeBuild finishes a kept set whose build stopped after its weeks were written.
func resumeBuild(ctx context.Context, wh *warehouse.Warehouse) {
	ds, err := wh.Datasets(ctx, workspace)
	must(err)
	var stats, copied int
	must(wh.DB().QueryRowContext(ctx, `select (select count(*) from term_stats where dataset_id = ?), (select count(*) from term_copy.compacted where dataset_id = ?)`, ds[0].ID, ds[0].ID).Scan(&stats, &copied))
	if stats == 0 {
		start := time.Now()
		must(wh.RebuildStats(ctx, ds[0].ID))
		fmt.Printf("measures in full (presence recount, measures, seasonality): %s\n", time.Since(start).Round(time.Millisecond))
	}
	if copied == 0 {
		start := time.Now()
		must(wh.Compact(ctx, ds[0].ID))
		fmt.Printf("term-ordered copy: %s\n", time.Since(start).Round(time.Millisecond))
	}
}

// askQuestions times what the screens ask, prints p50/p95 and the process's peak RSS while
// answering, and returns the p50s with the names and substrings it used.
func askQuestions(ctx context.Context, wh *warehouse.Warehouse, d *warehouse.Dataset) (map[string]float64, []string, []string) {
	resetPeakRSS()
	page, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Sort: "rank", Limit: 1000, Window: 4})
	must(err)
	names := make([]string, len(page.Rows))
	for i, r := range page.Rows {
		names[i] = r.Term
	}
	// Half the history lookups go to long-tail terms, which are most of a real file.
	tail, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Sort: "rank", Desc: true, Limit: 1000, Window: 4})
	must(err)
	for _, r := range tail.Rows {
		names = append(names, r.Term)
	}
	r := rand.New(rand.NewPCG(1, 2))
	fmt.Println("| question | p50 ms | p95 ms |")
	fmt.Println("|---|---|---|")
	ours := map[string]float64{}
	ours["history"] = report1("history", "term history (1 term, every period)", 200, func() {
		_, err := wh.TermHistories(ctx, d, []string{names[r.IntN(len(names))]})
		must(err)
	})
	report1("history10", "term history (10 terms compared)", 30, func() {
		pick := make([]string, 10)
		for i := range pick {
			pick[i] = names[r.IntN(len(names))]
		}
		_, err := wh.TermHistories(ctx, d, pick)
		must(err)
	})
	subs := []string{"mat", "for women", "led", "black", "kids", "bottle", "2 pack", "heavy"}
	ours["explore"] = report1("explore", "explore: substring + sort by 4-period change, 100 rows + total", 40, func() {
		_, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Search: subs[r.IntN(len(subs))], Sort: "change4", Desc: true, Limit: 100, Window: 4})
		must(err)
	})
	report1("explore-prefix", "explore: prefix + rank range, sort by rank", 40, func() {
		_, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Search: subs[r.IntN(len(subs))], Prefix: true, MaxRank: 100000, Sort: "rank", Limit: 100, Window: 4})
		must(err)
	})
	ours["overview"] = report1("overview", "overview (risers, fallers, new, breakouts, coming-up)", 40, func() {
		_, err := wh.Overview(ctx, d, 4)
		must(err)
	})
	report1("summary", "dataset summary (periods, gaps, coverage)", 40, func() {
		_, err := wh.DatasetSummary(ctx, d)
		must(err)
	})
	products, brands := pagesToAsk(ctx, wh, d, names)
	if len(products) > 0 {
		report1("product", fmt.Sprintf("product page (terms where an ASIN is in the top 3; %d ASINs)", len(products)), 40, func() {
			_, err := wh.ProductTerms(ctx, d, products[r.IntN(len(products))], 50)
			must(err)
		})
		report1("explore-asin", fmt.Sprintf("explore filtered by a product (%d ASINs), sort by rank", len(products)), 40, func() {
			_, err := wh.Explore(ctx, d, warehouse.ExploreQuery{ASIN: products[r.IntN(len(products))], Sort: "rank", Limit: 100, Window: 4})
			must(err)
		})
	}
	var categories []string // the top categories of the first page of the list, a few times each
	for _, row := range page.Rows[:min(len(page.Rows), 100)] {
		if row.TopCategory != "" && !slices.Contains(categories, row.TopCategory) {
			categories = append(categories, row.TopCategory)
		}
	}
	if len(brands) > 0 {
		report1("explore-brand", fmt.Sprintf("explore filtered by a brand (%d brands), sort by rank", len(brands)), 40, func() {
			_, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Brand: brands[r.IntN(len(brands))], Sort: "rank", Limit: 100, Window: 4})
			must(err)
		})
	}
	if len(brands) > 0 {
		report1("brand-now", fmt.Sprintf("a watchlist brand's latest numbers (%d brands)", len(brands)), 40, func() {
			_, err := wh.BrandNow(ctx, d, brands[r.IntN(len(brands))])
			must(err)
		})
	}
	if len(categories) > 0 {
		report1("explore-category", fmt.Sprintf("explore filtered by a category (%d categories), sort by rank", len(categories)), 40, func() {
			_, err := wh.Explore(ctx, d, warehouse.ExploreQuery{Category: categories[r.IntN(len(categories))], Sort: "rank", Limit: 100, Window: 4})
			must(err)
		})
	}
	if len(brands) > 0 {
		report1("brand", fmt.Sprintf("brand page (terms where a brand is in the top 3; %d brands)", len(brands)), 40, func() {
			_, err := wh.BrandTerms(ctx, d, brands[r.IntN(len(brands))], 50)
			must(err)
		})
	}
	report1("rootword", "root-word group (every term containing a phrase, per period)", 20, func() {
		_, err := wh.RootWords(ctx, d, subs[r.IntN(len(subs))])
		must(err)
	})
	// The demand file stores the groups of the words and word pairs in 25k terms or more;
	// these phrases are none of those, so their groups are scanned: "kid" matches as many
	// terms as "kids", the slowest group above.
	scanned := []string{"kid", "set of 4", "wireless ear", "steel water"}
	report1("rootword-scan", fmt.Sprintf("root-word group of a phrase not stored (%q)", scanned), 20, func() {
		_, err := wh.RootWords(ctx, d, scanned[r.IntN(len(scanned))])
		must(err)
	})
	if d.Latest != nil && (only == "" || slices.Contains(strings.Split(only, ","), "explore-past")) {
		// A list at a past period: its first question computes that period's measures; the
		// ones after it (paging, sorting, filtering at the same period) read them cached.
		at := d.Latest.AddDate(0, 0, -28)
		sorts := []string{"rank", "change1", "change4", "term"}
		start := time.Now()
		_, err := wh.Explore(ctx, d, warehouse.ExploreQuery{At: at, Sort: "rank", Limit: 100, Window: 4})
		must(err)
		fmt.Printf("| explore at a past period (4 weeks back), first question: measures computed | %.1f | |\n", ms(time.Since(start)))
		report1("explore-past", "explore at the same past period, another sort or page (measures cached)", 20, func() {
			q := warehouse.ExploreQuery{At: at, Sort: sorts[r.IntN(len(sorts))], Desc: true, Offset: 100 * r.IntN(5), Limit: 100, Window: 4}
			_, err := wh.Explore(ctx, d, q)
			must(err)
		})
	}
	fmt.Printf("peak RSS while answering: %s\n", peakRSS())
	return ours, names, subs
}

// only lists the questions to time (-only); empty: all.
var only string

// report1 prints a question's p50 and p95 and returns the p50 in milliseconds; a question left
// out by -only is not asked and returns 0.
func report1(key, name string, n int, fn func()) float64 {
	if only != "" && !slices.Contains(strings.Split(only, ","), key) {
		return 0
	}
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

// pagesToAsk picks the product and brand pages to time: the top products and brands of the
// latest period of up to 20 terms, half popular and half long-tail, so a page is not timed
// only on the one entity its first answer left in the caches.
func pagesToAsk(ctx context.Context, wh *warehouse.Warehouse, d *warehouse.Dataset, names []string) (products, brands []string) {
	var pick []string
	for i := 0; i < len(names) && len(pick) < 20; i += max(1, len(names)/20) {
		pick = append(pick, names[i])
	}
	for _, term := range pick {
		h, err := wh.TermHistories(ctx, d, []string{term})
		must(err)
		if len(h) == 0 || len(h[0].Points) == 0 {
			continue
		}
		last := h[0].Points[len(h[0].Points)-1]
		for _, p := range last.Products {
			if !slices.Contains(products, p.ASIN) {
				products = append(products, p.ASIN)
			}
		}
		for _, b := range last.Brands {
			if !slices.Contains(brands, b) {
				brands = append(brands, b)
			}
		}
	}
	return products, brands
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

// benchImport writes the week after the set as a weekly Top Search Terms CSV, imports it into
// the set (measures refreshed over the whole history, atomically), times DuckDB's bare read_csv
// of the same file in the same run, and prints the ratio; then it re-imports the same week from
// its SP-API JSON (a replacement) and rebuilds the term-ordered copy.
func benchImport(ctx context.Context, wh *warehouse.Warehouse, dir string, size demo.Size, spapi bool, answerMem, importMem string) {
	g := demo.New(size)
	w := g.NextWeek()
	end := g.Week(w).Meta().Period.End
	weekStart := g.Week(w).Meta().Period.Start
	csvPath := filepath.Join(dir, "US_Top_Search_Terms_Simple_Week_"+end.Format("2006_01_02")+".csv")
	jsonPath := filepath.Join(dir, "GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK.json")
	writeFile(csvPath, func(f *os.File) error { return demo.WriteTSTCSV(f, g.Week(w)) })
	defer os.Remove(csvPath)
	if spapi {
		writeFile(jsonPath, func(f *os.File) error { return demo.WriteSPAPI(f, g.Week(w)) })
		defer os.Remove(jsonPath)
	}
	g = nil // the generator's 3M term specifications are not part of the import's memory
	runtime.GC()
	debug.FreeOSMemory()
	st, _ := os.Stat(csvPath)
	// An earlier run imported this week already: remove it (untimed), so the timed import is a
	// new week, as a seller's weekly import is, and not a replacement.
	if ds, err := wh.Datasets(ctx, workspace); err == nil && len(ds) > 0 {
		if err := wh.DeletePeriod(ctx, ds[0].ID, report.Week, weekStart); err == nil {
			fmt.Println("removed the week an earlier run imported")
		}
		wh.WaitBackground()
	}

	// DuckDB alone first, with nothing else running; materialise every column, so DuckDB parses
	// the whole file as our import must. Its time moves by a quarter from run to run on these
	// machines, so the ratio is taken to the median of three runs (all printed). It runs at the
	// import's memory limit, as our import does: at the answering limit its table spills more.
	_, err := wh.DB().ExecContext(ctx, `set memory_limit = '`+importMem+`'`)
	must(err)
	bares := make([]time.Duration, 3)
	for i := range bares {
		start := time.Now()
		_, err := wh.DB().ExecContext(ctx, `create or replace temp table bare_parse as select * from read_csv(?, skip=1, header=true)`, csvPath)
		must(err)
		bares[i] = time.Since(start)
		_, _ = wh.DB().ExecContext(ctx, `drop table bare_parse`)
	}
	fmt.Printf("DuckDB read_csv alone, three runs: %s, %s, %s\n", bares[0].Round(time.Millisecond), bares[1].Round(time.Millisecond), bares[2].Round(time.Millisecond))
	slices.Sort(bares)
	bare := bares[1]
	_, err = wh.DB().ExecContext(ctx, `set memory_limit = '`+answerMem+`'`)
	must(err)

	resetPeakRSS()
	stopProfile := startCPUProfile()
	start := time.Now()
	rec := importFile(ctx, wh, csvPath)
	ours := time.Since(start)
	stopProfile()
	importRSS := peakRSS()
	fmt.Printf("import of a %d-row weekly CSV (%.0f MB) into the set (replaced: %v), measures refreshed, one transaction: %s (peak RSS %s); DuckDB read_csv alone (median of three): %s; ratio %.1fx\n",
		rec.Rows, float64(st.Size())/1e6, rec.Replaced, ours.Round(time.Millisecond), importRSS, bare.Round(time.Millisecond), ours.Seconds()/bare.Seconds())
	start = time.Now()
	wh.WaitBackground()
	fmt.Printf("background seasonality refresh after it: %s\n", time.Since(start).Round(time.Millisecond))
	if spapi {
		st, _ := os.Stat(jsonPath)
		start = time.Now()
		rec := importFile(ctx, wh, jsonPath)
		fmt.Printf("re-import of the same week from SP-API JSON (%.0f MB, replaced: %v, %d terms): %s\n",
			float64(st.Size())/1e6, rec.Replaced, rec.Rows, time.Since(start).Round(time.Millisecond))
		wh.WaitBackground()
	}
	if !rebuildCopy {
		return
	}
	start = time.Now()
	must(wh.Compact(ctx, rec.DatasetID))
	fmt.Printf("rebuild of the term-ordered copy (in the background, once %d periods are outside it or appended to it): %s\n", warehouse.CompactAfter, time.Since(start).Round(time.Millisecond))
}

// startCPUProfile starts the CPU profile -cpuprofile asks for and returns what stops it.
func startCPUProfile() (stop func()) {
	if cpuProfile == "" {
		return func() {}
	}
	f, err := os.Create(cpuProfile)
	must(err)
	must(pprof.StartCPUProfile(f))
	return func() {
		pprof.StopCPUProfile()
		must(f.Close())
	}
}

func importFile(ctx context.Context, wh *warehouse.Warehouse, path string) *warehouse.PeriodRecord {
	srcs, err := report.Open(path, report.Options{})
	must(err)
	defer srcs[0].Close()
	rec, err := wh.Import(ctx, srcs[0], warehouse.ImportOptions{Workspace: workspace, ImportedBy: "bench"})
	must(err)
	return rec
}

func writeFile(path string, write func(*os.File) error) {
	f, err := os.Create(path)
	must(err)
	must(write(f))
	must(f.Close())
}

// resetPeakRSS starts a new peak-RSS measurement (Linux: writing 5 to clear_refs resets VmHWM).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

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

// historyFilesSize is the size of the store's history files (warehouse/history_file.go).
func historyFilesSize(dir string) int64 {
	matches, _ := filepath.Glob(filepath.Join(dir, "trends-history-*.hist"))
	var size int64
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil {
			size += st.Size()
		}
	}
	return size
}
