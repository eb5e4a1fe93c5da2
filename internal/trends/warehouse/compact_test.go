package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// ranksOf reads a term's history as ranks per week (0 = absent or missing).
func ranksOf(t *testing.T, w *Warehouse, d *Dataset, term string) []int {
	t.Helper()
	h, err := w.TermHistories(context.Background(), d, []string{term})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, len(h[0].Points))
	for i, p := range h[0].Points {
		if p.Rank != nil {
			out[i] = *p.Rank
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// History reads the same whether a period sits in the term-ordered copy or only in fact, and a
// period replaced or deleted after compaction never shows its old rows.
func TestHistoryIsTheSameBeforeAndAfterCompaction(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}), week(1, map[string]int{"a": 2, "b": 1}), week(2, map[string]int{"a": 3, "b": 1}))
	d := dataset(t, w, "ws")
	want := []int{1, 2, 3}
	if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
		t.Fatalf("before compaction %v, want %v", got, want)
	}
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if n, _ := outsideTheCopy(ctx, w.db, d.ID); n != 0 {
		t.Fatalf("%d periods left outside the copy", n)
	}
	if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
		t.Fatalf("after compaction %v, want %v", got, want)
	}
	// Replace week 1 and add week 3: the copy's week-1 rows are stale and must not be read.
	load(t, w, "ws", week(1, map[string]int{"a": 9, "b": 1}), week(3, map[string]int{"a": 4}))
	if got, want := ranksOf(t, w, d, "a"), []int{1, 9, 3, 4}; !equalInts(got, want) {
		t.Fatalf("after re-import %v, want %v", got, want)
	}
	if err := w.DeletePeriod(ctx, d.ID, d.Kind, week0); err != nil {
		t.Fatal(err)
	}
	if got, want := ranksOf(t, w, d, "a"), []int{9, 3, 4}; !equalInts(got, want) {
		t.Fatalf("after deleting week 0 %v, want %v", got, want)
	}
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if got, want := ranksOf(t, w, d, "a"), []int{9, 3, 4}; !equalInts(got, want) {
		t.Fatalf("after the second compaction %v, want %v", got, want)
	}
}

// Enough imports start a background rebuild; Close waits for it, and the copy then holds
// every period.
func TestImportsTriggerCompaction(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	for i := range CompactAfter {
		load(t, w, "ws", week(i, map[string]int{"a": i + 1}))
	}
	d := dataset(t, w, "ws")
	w.bg.Wait()
	n, err := outsideTheCopy(ctx, w.db, d.ID)
	if err != nil || n != 0 {
		t.Fatalf("after %d imports %d periods are outside the copy (%v)", CompactAfter, n, err)
	}
	got := ranksOf(t, w, d, "a")
	if len(got) != CompactAfter || got[CompactAfter-1] != CompactAfter {
		t.Fatalf("history %v", got)
	}
}

// After a rebuild, each new period is appended to the copy in the background; a replaced one
// is read from fact until the next rebuild, which comes once CompactAfter periods sit outside
// the copy or in appended runs. History is right throughout.
func TestNewPeriodsAreAppendedToTheCopy(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	rankOf := func(i int) int { return i + 1 }
	for i := range CompactAfter {
		load(t, w, "ws", week(i, map[string]int{"a": rankOf(i), "b": 50 + i}))
	}
	d := dataset(t, w, "ws")
	w.bg.Wait() // the rebuild
	coverage := func(wantOutside, wantAppended int) {
		t.Helper()
		w.bg.Wait()
		outside, appended, err := copyCoverage(ctx, w.db, d.ID)
		if err != nil || outside != wantOutside || appended != wantAppended {
			t.Fatalf("periods outside the copy %d, appended %d (%v); want %d and %d", outside, appended, err, wantOutside, wantAppended)
		}
	}
	coverage(0, 0)
	want := make([]int, CompactAfter)
	for i := range want {
		want[i] = rankOf(i)
	}
	load(t, w, "ws", week(CompactAfter, map[string]int{"a": 77, "b": 1}))
	want = append(want, 77)
	coverage(0, 1)
	var rows int
	if err := w.db.QueryRow(`select count(*) from ` + byTermTable(d.ID) + ` where period_idx = (select max(period_idx) from period)`).Scan(&rows); err != nil || rows != 2 {
		t.Fatalf("the new period's rows in the copy: %d (%v), want 2", rows, err)
	}
	if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
		t.Fatalf("with an appended period %v, want %v", got, want)
	}
	// Replacing an appended period leaves it to fact (the copy keeps its old rows, unread).
	load(t, w, "ws", week(CompactAfter, map[string]int{"a": 66}))
	want[CompactAfter] = 66
	coverage(1, 0)
	if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
		t.Fatalf("with the appended period replaced %v, want %v", got, want)
	}
	// New periods are appended until, with the replaced one, CompactAfter are outside the copy's
	// sorted body; then the copy is rebuilt.
	for i := CompactAfter + 1; i < 2*CompactAfter-1; i++ {
		load(t, w, "ws", week(i, map[string]int{"a": rankOf(i)}))
		want = append(want, rankOf(i))
		coverage(1, i-CompactAfter)
		if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
			t.Fatalf("after week %d %v, want %v", i, got, want)
		}
	}
	load(t, w, "ws", week(2*CompactAfter-1, map[string]int{"a": 5}))
	want = append(want, 5)
	coverage(0, 0)
	if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
		t.Fatalf("after the rebuild %v, want %v", got, want)
	}
}

// outsideTheCopy counts the periods history reads from fact.
func outsideTheCopy(ctx context.Context, q queryer, ds int) (int, error) {
	n, _, err := copyCoverage(ctx, q, ds)
	return n, err
}

// pearson is the correlation of xs and ys.
func pearson(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxy, sxx, syy float64
	for i := range xs {
		sx, sy, sxy, sxx, syy = sx+xs[i], sy+ys[i], sxy+xs[i]*ys[i], sxx+xs[i]*xs[i], syy+ys[i]*ys[i]
	}
	return (n*sxy - sx*sy) / math.Sqrt((n*sxx-sx*sx)*(n*syy-sy*sy))
}

// The side tables (presence, seasonality) kept up to date at import and in the background
// agree with a recount from scratch, through imports, a replacement and a deletion.
func TestSideTablesMatchARecount(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	const weeks = 70
	rankX := func(i int) int { return 1 + (i*7)%13 + i/52 }
	ranks := make([]map[string]int, weeks)
	for i := range weeks {
		ranks[i] = map[string]int{"x": rankX(i), "z": 30}
		if i%2 == 0 {
			ranks[i]["y"] = 1 + (i*5)%11
		}
		load(t, w, "ws", week(i, ranks[i]))
	}
	d := dataset(t, w, "ws")
	w.bg.Wait() // the seasonality refresh and the copy's rebuild run after the imports
	expectSeason := func(term string) float64 {
		var xs, ys []float64
		for i := weeks - 52; i < weeks; i++ {
			a, b := ranks[i][term], 0
			if i-52 >= 0 {
				b = ranks[i-52][term]
			}
			if a > 0 && b > 0 {
				xs, ys = append(xs, math.Log(float64(a))), append(ys, math.Log(float64(b)))
			}
		}
		return pearson(xs, ys)
	}
	checkSeason := func(stage string) {
		t.Helper()
		x := termRow(t, w, d, "x")
		if x.Seasonality == nil || math.Abs(*x.Seasonality-expectSeason("x")) > 1e-9 {
			t.Errorf("%s: seasonality of x %v, want %.6f", stage, x.Seasonality, expectSeason("x"))
		}
		if z := termRow(t, w, d, "z"); z.Seasonality != nil {
			t.Errorf("%s: a constant rank has no correlation, got %v", stage, *z.Seasonality)
		}
	}
	checkPresence := func(stage string) {
		t.Helper()
		var wrong int
		err := w.db.QueryRow(`select count(*) from (select term_id, count(*) n from fact where dataset_id = ? group by term_id) f
			full join `+presenceOf(d.ID, "true")+` p using (term_id) where f.n is distinct from p.n`, d.ID).Scan(&wrong)
		if err != nil || wrong != 0 {
			t.Errorf("%s: %d terms whose presence differs from a recount (%v)", stage, wrong, err)
		}
		// Once the background job has run, the imports' changes are folded into presence.
		w.bg.Wait()
		var logged int
		if err := w.db.QueryRow(`select count(*) from ` + presenceLogTable(d.ID)).Scan(&logged); err != nil || logged != 0 {
			t.Errorf("%s: %d changes left in the presence log after the background job (%v)", stage, logged, err)
		}
	}
	checkSeason("after imports")
	checkPresence("after imports")
	if x := termRow(t, w, d, "x"); x.PeriodsPresent != weeks {
		t.Errorf("x present in %d periods, want %d", x.PeriodsPresent, weeks)
	}
	// Replace week 60 (x drops out of it) and delete week 61.
	ranks[60] = map[string]int{"y": 3, "z": 30}
	load(t, w, "ws", week(60, ranks[60]))
	if err := w.DeletePeriod(ctx, d.ID, d.Kind, week0.AddDate(0, 0, 7*61)); err != nil {
		t.Fatal(err)
	}
	ranks[61] = map[string]int{}
	w.bg.Wait()
	checkPresence("after a replacement and a deletion")
	checkSeason("after a replacement and a deletion")
	if x := termRow(t, w, d, "x"); x.PeriodsPresent != weeks-2 {
		t.Errorf("x present in %d periods, want %d", x.PeriodsPresent, weeks-2)
	}
}

// Product and brand pages list the terms where the product was in the top 3 within the last
// PresenceWindow periods, each with its whole history (older periods included).
func TestProductPageListsRecentTermsWithTheirWholeHistory(t *testing.T) {
	w := openTemp(t)
	weeks := []*memSource{week(0, map[string]int{"old": 1, "recent": 2})}
	for i := 1; i <= PresenceWindow; i++ {
		weeks = append(weeks, week(i, map[string]int{"recent": 2}))
	}
	load(t, w, "ws", weeks...)
	d := dataset(t, w, "ws")
	p, err := w.ProductTerms(context.Background(), d, "B0TEST0001", 50)
	if err != nil || len(p.Terms) != 1 || p.Terms[0].Term != "recent" {
		t.Fatalf("want only the term seen in the last %d periods: %+v %v", PresenceWindow, p, err)
	}
	if got := len(p.Terms[0].Points); got != PresenceWindow+1 {
		t.Errorf("the listed term shows %d points, want its whole history of %d", got, PresenceWindow+1)
	}
}

// Search is case-insensitive and literal, whether or not the dataset's terms are all lowercase.
func TestSearchIsCaseInsensitiveAndLiteral(t *testing.T) {
	w := openTemp(t)
	load(t, w, "mixed", week(0, map[string]int{"Yoga Mat": 1, "yoga ball": 2, "100% cotton": 3, "100 cotton": 4}))
	load(t, w, "lower", week(0, map[string]int{"yoga mat": 1, "yoga_ball": 2}))
	for _, c := range []struct {
		ws, search string
		prefix     bool
		want       int
	}{
		{"mixed", "YOGA", false, 2}, {"mixed", "mat", false, 1}, {"mixed", "yoga m", true, 1},
		{"mixed", "100%", false, 1}, {"mixed", "%", false, 1},
		{"lower", "YOGA", true, 2}, {"lower", "a_b", false, 1}, {"lower", "_", false, 1}, {"lower", "mat", true, 0},
	} {
		d := dataset(t, w, c.ws)
		if d.LowercaseTerms != (c.ws == "lower") {
			t.Fatalf("%s: lowercase flag %v", c.ws, d.LowercaseTerms)
		}
		p, err := w.Explore(context.Background(), d, ExploreQuery{Search: c.search, Prefix: c.prefix, Window: 4, Limit: 10})
		if err != nil {
			t.Fatalf("%s: search %q: %v", c.ws, c.search, err)
		}
		if p.Total != c.want || len(p.Rows) != c.want {
			t.Errorf("%s: search %q (prefix %v): %d rows, total %d, want %d (%v)", c.ws, c.search, c.prefix, len(p.Rows), p.Total, c.want, err)
		}
	}
}

// Terms, titles and brands come back from the staging file exactly as parsed: quotes, commas,
// line breaks, tabs, backslashes, "NULL" and non-ASCII text included.
func TestStagingKeepsEveryCharacter(t *testing.T) {
	w := openTemp(t)
	odd := []string{`say "hi", then go`, "two\nlines\r\nand a CR", "tab\there", `back\slash \N`, "NULL", "  spaced  ", "ünïcödé – 東京 🍵", `"`, ","}
	src := week(0, nil)
	for i, s := range odd {
		r := report.Row{Line: i + 3, Term: s, Rank: int32(i + 1), Brands: [3]string{s}}
		r.Products[0] = report.Product{ASIN: fmt.Sprintf("B0ODD%05d", i), Title: s, ClickShare: 0.5, ConversionShare: report.NoShare}
		r.Products[1] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
		r.Products[2] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
		src.rows = append(src.rows, r)
	}
	load(t, w, "ws", src)
	d := dataset(t, w, "ws")
	h, err := w.TermHistories(context.Background(), d, odd)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range odd {
		if !h[i].Found {
			t.Errorf("term %q not found", s)
			continue
		}
		p := h[i].Points[0]
		if *p.Rank != i+1 || p.Products[0].Title != s || p.Brands[0] != s || len(p.Products) != 1 || p.Products[0].ConversionShare != nil {
			t.Errorf("term %q came back as %+v", s, p)
		}
	}
}

// The 13- and 52-period changes and coming-up, against hand-computed values (with a period of
// the coming-up window where the term is absent).
func TestLongWindowMeasures(t *testing.T) {
	w := openTemp(t)
	const weeks = 60
	L := weeks - 1
	ranks := map[int]int{L - 52: 100, L - 48: 50, L - 47: 40, L - 45: 25, L - 44: 60, L - 13: 40, L: 20}
	var src []*memSource
	for i := range weeks {
		m := map[string]int{"filler": 500, "plain": 7}
		if r, ok := ranks[i]; ok {
			m["c"] = r
		}
		src = append(src, week(i, m))
	}
	load(t, w, "ws", src...)
	d := dataset(t, w, "ws")
	c := termRow(t, w, d, "c")
	if c.Changes[2] == nil || math.Abs(*c.Changes[2]-1) > 1e-9 || c.Changes[3] == nil || math.Abs(*c.Changes[3]-math.Log2(5)) > 1e-9 {
		t.Errorf("13/52-period changes %v %v, want 1 and log2(5)", c.Changes[2], c.Changes[3])
	}
	if c.ComingUp == nil || math.Abs(*c.ComingUp-2) > 1e-9 {
		t.Errorf("coming-up %v, want log2(100/25) = 2", c.ComingUp)
	}
	if c.PeriodsPresent != len(ranks) {
		t.Errorf("present in %d periods, want %d", c.PeriodsPresent, len(ranks))
	}
	if p := termRow(t, w, d, "plain"); p.ComingUp == nil || *p.ComingUp != 0 || p.Changes[3] == nil || *p.Changes[3] != 0 {
		t.Errorf("a steady term: coming-up %v, 52-period change %v, want 0 and 0", p.ComingUp, p.Changes[3])
	}
}

// The copies are kept in a file of their own, written in small blocks, and nothing of them is
// left in the store itself.
func TestCopiesLiveInTheirOwnFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trends.duckdb")
	w := openAt(t, path)
	defer closeChecked(t, w)
	load(t, w, "ws", week(0, map[string]int{"a": 1}), week(1, map[string]int{"a": 2}))
	d := dataset(t, w, "ws")
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "trends-copy.duckdb")); err != nil {
		t.Fatalf("copy file: %v", err)
	}
	var blockSize int
	if err := w.db.QueryRowContext(ctx, `select block_size from pragma_database_size() where database_name = ?`, copyDB).Scan(&blockSize); err != nil {
		t.Fatal(err)
	}
	if blockSize != copyBlockSize {
		t.Fatalf("the copy file's blocks are %d bytes, want %d", blockSize, copyBlockSize)
	}
	var copyTables, storeTables int
	err := w.db.QueryRowContext(ctx, `select count(*) filter (where database_name = ?), count(*) filter (where database_name = current_database())
		from duckdb_tables() where table_name like 'fact\_by\_term\_%' escape '\' or table_name = 'compacted'`, copyDB).Scan(&copyTables, &storeTables)
	if err != nil {
		t.Fatal(err)
	}
	if copyTables != 2 || storeTables != 0 {
		t.Fatalf("copy tables: %d in the copy file (want the copy and its index), %d in the store (want none)", copyTables, storeTables)
	}
}

// A store whose copies are missing (the copy file lost, or a store written before the copies
// had a file of their own, which kept them in the store) answers from fact, drops the old
// copies when it opens, and ResumeCopies rebuilds them in the copy file.
func TestMissingCopiesAreRebuilt(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trends.duckdb")
	w := openAt(t, path)
	var sources []*memSource
	for i := range CompactAfter {
		sources = append(sources, week(i, map[string]int{"a": i + 1, "b": 20 - i}))
	}
	load(t, w, "ws", sources...)
	w.WaitBackground()
	d := dataset(t, w, "ws")
	want := ranksOf(t, w, d, "a")
	closeChecked(t, w)

	// What an older version left: the copy and its index inside the store, no copy file.
	for _, f := range []string{"trends-copy.duckdb", "trends-copy.duckdb.wal"} {
		if err := os.Remove(filepath.Join(filepath.Dir(path), f)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	old, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = old.ExecContext(ctx, fmt.Sprintf(`create table compacted (dataset_id integer not null, period_idx integer not null);
		insert into compacted select dataset_id, period_idx from period;
		create table fact_by_term_%d as select %s from fact order by term_id, period_idx`, d.ID, factColumns))
	if cerr := old.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}

	w = openAt(t, path)
	defer closeChecked(t, w)
	var left int
	if err := w.db.QueryRowContext(ctx, `select count(*) from duckdb_tables() where database_name = current_database()
		and (table_name = 'compacted' or table_name like 'fact\_by\_term\_%' escape '\')`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d old copy tables left in the store (%v)", left, err)
	}
	if n, err := outsideTheCopy(ctx, w.db, d.ID); err != nil || n != CompactAfter {
		t.Fatalf("%d periods outside the copy, want all %d (%v)", n, CompactAfter, err)
	}
	if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
		t.Fatalf("history without the copy %v, want %v", got, want)
	}
	if err := w.ResumeCopies(ctx); err != nil {
		t.Fatal(err)
	}
	w.WaitBackground()
	if n, err := outsideTheCopy(ctx, w.db, d.ID); err != nil || n != 0 {
		t.Fatalf("after ResumeCopies %d periods are outside the copy (%v)", n, err)
	}
	if got := ranksOf(t, w, d, "a"); !equalInts(got, want) {
		t.Fatalf("history from the rebuilt copy %v, want %v", got, want)
	}
}
