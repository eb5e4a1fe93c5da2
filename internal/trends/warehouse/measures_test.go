package warehouse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// memSource is an in-memory report; failAt > 0 makes row failAt fail like a broken line.
type memSource struct {
	meta   report.Meta
	rows   []report.Row
	i      int
	failAt int
}

func (m *memSource) Meta() report.Meta { return m.meta }
func (m *memSource) Next() (report.Row, error) {
	if m.failAt > 0 && m.i+1 == m.failAt {
		return report.Row{}, &report.ParseError{Line: m.failAt + 2, Expected: "broken on purpose"}
	}
	if m.i >= len(m.rows) {
		return report.Row{}, io.EOF
	}
	m.i++
	return m.rows[m.i-1], nil
}

var week0 = time.Date(2026, 1, 4, 0, 0, 0, 0, time.UTC) // a Sunday

// week builds a weekly report of term→rank (rank 0 = absent); asin is every term's top product.
func week(n int, ranks map[string]int) *memSource {
	start := week0.AddDate(0, 0, 7*n)
	src := &memSource{meta: report.Meta{Layout: report.LayoutAmazonTST, Marketplace: "amazon.com", Name: "mem",
		Period: report.Period{Kind: report.Week, Start: start, End: start.AddDate(0, 0, 6)}}}
	line := 3
	for term, rank := range ranks {
		if rank == 0 {
			continue
		}
		r := report.Row{Line: line, Term: term, Rank: int32(rank), Brands: [3]string{"Acme"}}
		r.Products[0] = report.Product{ASIN: "B0TEST0001", Title: "Test", ClickShare: 0.25, ConversionShare: 0.5}
		r.Products[1] = report.Product{ASIN: "B0TEST0002", ClickShare: 0.125, ConversionShare: report.NoShare}
		r.Products[2] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
		src.rows = append(src.rows, r)
		line++
	}
	return src
}

func load(t *testing.T, w *Warehouse, ws string, weeks ...*memSource) *PeriodRecord {
	t.Helper()
	var rec *PeriodRecord
	for _, s := range weeks {
		var err error
		if rec, err = w.Import(context.Background(), s, ImportOptions{Workspace: ws, ImportedBy: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	return rec
}

func termRow(t *testing.T, w *Warehouse, d *Dataset, term string) TermRow {
	t.Helper()
	p, err := w.Explore(context.Background(), d, ExploreQuery{Search: term, Prefix: true, Window: 4, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Rows {
		if r.Term == term {
			return r
		}
	}
	t.Fatalf("term %q not in the latest period", term)
	return TermRow{}
}

func dataset(t *testing.T, w *Warehouse, ws string) *Dataset {
	t.Helper()
	all, err := w.Datasets(context.Background(), ws)
	if err != nil || len(all) != 1 {
		t.Fatalf("datasets %v %v", all, err)
	}
	return &all[0]
}

func TestMeasuresAgainstHandComputedValues(t *testing.T) {
	w := openTemp(t)
	// deep is there so every week covers ranks down to 100.
	load(t, w, "ws",
		week(0, map[string]int{"riser": 80, "faller": 5, "deep": 100}),
		week(1, map[string]int{"riser": 60, "faller": 6, "deep": 100}),
		week(2, map[string]int{"riser": 40, "faller": 8, "deep": 100}),
		week(3, map[string]int{"riser": 30, "faller": 9, "deep": 100}),
		week(4, map[string]int{"riser": 20, "faller": 20, "newcomer": 50, "beyond": 150, "deep": 100}),
	)
	d := dataset(t, w, "ws")
	riser := termRow(t, w, d, "riser")
	if *riser.Ranks[1] != 80 || math.Abs(*riser.Changes[1]-2) > 1e-9 || math.Abs(*riser.Changes[0]-math.Log2(30.0/20)) > 1e-9 {
		t.Errorf("riser: ranks %v changes %v, want ch4 = log2(80/20) = 2", riser.Ranks, riser.Changes)
	}
	if !riser.Breakout || riser.New {
		t.Errorf("riser doubled over 4 weeks and rose 3 weeks running: breakout, not new (%+v)", riser)
	}
	if riser.Changes[2] != nil || riser.Changes[3] != nil {
		t.Error("13- and 52-week changes must be empty ('still collecting'), not zero")
	}
	if f := termRow(t, w, d, "faller"); math.Abs(*f.Changes[1]-math.Log2(5.0/20)) > 1e-9 || f.Breakout {
		t.Errorf("faller: %v", f.Changes)
	}
	if n := termRow(t, w, d, "newcomer"); !n.New || !n.Breakout || n.PeriodsPresent != 1 {
		t.Errorf("newcomer (rank 50, above the previous deepest rank 100) should be new: %+v", n)
	}
	if b := termRow(t, w, d, "beyond"); b.New {
		t.Error("a term ranked below what earlier files covered must not count as new")
	}
	if riser.ClickConc == nil || math.Abs(*riser.ClickConc-0.375) > 1e-9 || riser.ConvConc != nil {
		t.Errorf("concentration %v %v, want 0.375 and none (product 2 has a blank conversion share)", riser.ClickConc, riser.ConvConc)
	}
	if len(riser.Spark) != SparkPeriods || riser.Spark[12] == nil || *riser.Spark[12] != 20 || riser.Spark[7] != nil {
		t.Errorf("spark %v", riser.Spark)
	}
	page, _ := w.Explore(context.Background(), d, ExploreQuery{List: "risers", Window: 4, Sort: "change4", Desc: true, Limit: 10})
	if page.Total != 1 || page.Rows[0].Term != "riser" {
		t.Errorf("risers: %+v", page)
	}
	page, _ = w.Explore(context.Background(), d, ExploreQuery{List: "new", Window: 4, Sort: "rank", Limit: 10})
	if page.Total != 1 || page.Rows[0].Term != "newcomer" {
		t.Errorf("new: %+v", page)
	}
	// The overview's lists, chosen at import, agree with the same lists asked live.
	ov, err := w.Overview(context.Background(), d, 4)
	if err != nil || ov["risers"].Total != 1 || ov["risers"].Rows[0].Term != "riser" || ov["new"].Rows[0].Term != "newcomer" || ov["fallers"].Total != 1 {
		t.Errorf("overview %+v %v", ov, err)
	}
}

func TestGapsAreShownNotZeroFilled(t *testing.T) {
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"a": 1}), week(1, map[string]int{"a": 2}), week(3, map[string]int{"a": 4}))
	d := dataset(t, w, "ws")
	s, err := w.DatasetSummary(context.Background(), d)
	if err != nil || len(s.Periods) != 3 || len(s.Gaps) != 1 || !s.Gaps[0].Start.Equal(week0.AddDate(0, 0, 14)) {
		t.Fatalf("summary %+v %v", s, err)
	}
	h, err := w.TermHistories(context.Background(), d, []string{"a", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	pts := h[0].Points
	if len(pts) != 4 || pts[2].Loaded || pts[2].Rank != nil || *pts[3].Rank != 4 || !h[0].Found || h[1].Found {
		t.Errorf("history %+v", h)
	}
	if pts[0].Products[0].ASIN != "B0TEST0001" || *pts[0].Products[0].ClickShare != 0.25 || pts[0].Products[1].ConversionShare != nil {
		t.Errorf("products %+v", pts[0].Products)
	}
	if r := termRow(t, w, d, "a"); r.Changes[0] != nil {
		t.Error("a 1-period change across a missing period must be empty")
	}
}

func TestImportIsAtomic(t *testing.T) {
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}))
	d := dataset(t, w, "ws")
	before := counts(t, w)

	broken := week(1, map[string]int{"a": 1, "b": 2, "c": 3})
	broken.failAt = 2
	if _, err := w.Import(context.Background(), broken, ImportOptions{Workspace: "ws"}); err == nil {
		t.Fatal("a file broken at row 2 was accepted")
	}
	failedReimport := week(0, map[string]int{"a": 7, "b": 8})
	failedReimport.failAt = 2
	if _, err := w.Import(context.Background(), failedReimport, ImportOptions{Workspace: "ws"}); err == nil {
		t.Fatal("broken re-import accepted")
	}
	if after := counts(t, w); after != before {
		t.Errorf("a failed import left traces: %v -> %v", before, after)
	}
	if r := termRow(t, w, d, "a"); r.Rank != 1 {
		t.Errorf("failed re-import changed the old period: rank %d", r.Rank)
	}
	rec := load(t, w, "ws", week(0, map[string]int{"a": 5, "b": 2}))
	if !rec.Replaced || termRow(t, w, d, "a").Rank != 5 || counts(t, w)[0] != before[0] {
		t.Errorf("re-import should replace the period: %+v", rec)
	}
}

func counts(t *testing.T, w *Warehouse) [3]int {
	var c [3]int
	w.db.QueryRow(`select (select count(*) from fact), (select count(*) from period), (select count(*) from term_stats)`).Scan(&c[0], &c[1], &c[2])
	return c
}

func TestDuplicateTermsAreReported(t *testing.T) {
	w := openTemp(t)
	src := week(0, map[string]int{"a": 1})
	src.rows = append(src.rows, report.Row{Line: 9, Term: "a", Rank: 2})
	_, err := w.Import(context.Background(), src, ImportOptions{Workspace: "ws"})
	var pe *report.ParseError
	if !errors.As(err, &pe) || pe.Line != 9 {
		t.Fatalf("duplicate: %v", err)
	}
	src.i = 0
	rec, err := w.Import(context.Background(), src, ImportOptions{Workspace: "ws", Lenient: true})
	if err != nil || rec.Rows != 1 || len(rec.Warnings) != 1 {
		t.Fatalf("lenient duplicate: %+v %v", rec, err)
	}

	// The next week lists a term the dataset knows twice, and a new one twice.
	next := week(1, nil)
	for i, c := range []struct {
		term string
		rank int32
	}{{"a", 1}, {"c", 3}, {"b", 2}, {"c", 6}, {"a", 5}} {
		next.rows = append(next.rows, report.Row{Line: 3 + 2*i, Term: c.term, Rank: c.rank})
	}
	// The kept "c" lists two products, the dropped one three: the period record must count
	// the rows kept.
	product := func(asin string) report.Product {
		return report.Product{ASIN: asin, ClickShare: report.NoShare, ConversionShare: report.NoShare}
	}
	next.rows[1].Products = [3]report.Product{product("B0KEPT1"), product("B0KEPT2")}
	next.rows[3].Products = [3]report.Product{product("B0DROP1"), product("B0DROP2"), product("B0DROP3")}
	if _, err := w.Import(context.Background(), next, ImportOptions{Workspace: "ws"}); !errors.As(err, &pe) || pe.Line != 11 || pe.Value != "a" {
		t.Fatalf("a known term twice: %v", err)
	}
	if c := counts(t, w); c[0] != 1 || c[1] != 1 {
		t.Fatalf("the refused week left rows: %v", c)
	}
	next.i = 0
	rec, err = w.Import(context.Background(), next, ImportOptions{Workspace: "ws", Lenient: true})
	if err != nil || rec.Rows != 3 || len(rec.Warnings) != 2 || rec.DeepestRank != 3 || rec.TermsWith != [4]int{2, 0, 1, 0} {
		t.Fatalf("lenient, next week: %+v %v", rec, err)
	}
	d := dataset(t, w, "ws")
	for term, want := range map[string]int{"a": 1, "b": 2, "c": 3} {
		if r := termRow(t, w, d, term); r.Rank != want {
			t.Errorf("%q ranked %d, want %d (the first of its rows)", term, r.Rank, want)
		}
	}
}

func TestPagingIsStable(t *testing.T) {
	w := openTemp(t)
	ranks := map[string]int{}
	for i := 1; i <= 57; i++ {
		ranks[string(rune('a'+i%26))+string(rune('a'+i/26))] = i
	}
	load(t, w, "ws", week(0, ranks))
	d := dataset(t, w, "ws")
	seen := map[string]bool{}
	for off := 0; off < 57; off += 10 {
		// Every row ties on click concentration: the tiebreaker must keep pages disjoint.
		p, err := w.Explore(context.Background(), d, ExploreQuery{Sort: "clickConcentration", Limit: 10, Offset: off, Window: 4})
		if err != nil || p.Total != 57 {
			t.Fatal(p, err)
		}
		for _, r := range p.Rows {
			if seen[r.Term] {
				t.Fatalf("%q on two pages", r.Term)
			}
			seen[r.Term] = true
		}
	}
	if len(seen) != 57 {
		t.Errorf("pages covered %d of 57 terms", len(seen))
	}
	// Pages come in the sort's order, one after another, whatever order the rows are stored in.
	want := 57
	for off := 0; off < 57; off += 10 {
		p, err := w.Explore(context.Background(), d, ExploreQuery{Sort: "rank", Desc: true, Limit: 10, Offset: off, Window: 4})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Rows {
			if r.Rank != want {
				t.Fatalf("offset %d: rank %d where %d was due", off, r.Rank, want)
			}
			want--
		}
	}
	if p, err := w.Explore(context.Background(), d, ExploreQuery{Limit: 10, Offset: 60, Window: 4}); err != nil || p.Total != 57 || len(p.Rows) != 0 {
		t.Errorf("a page past the end: %+v %v", p, err)
	}
}

func TestProductAndBrandViews(t *testing.T) {
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"x": 3, "y": 1}), week(1, map[string]int{"x": 2}))
	d := dataset(t, w, "ws")
	p, err := w.ProductTerms(context.Background(), d, "b0test0001", 50)
	if err != nil || len(p.Terms) != 2 || p.Terms[1].Term != "x" || len(p.Terms[1].Points) != 2 || *p.Terms[1].Points[0].ClickShare != 0.25 {
		t.Fatalf("product %+v %v", p, err)
	}
	b, err := w.BrandTerms(context.Background(), d, "acme", 50)
	if err != nil || b.Key != "Acme" || len(b.Terms) != 2 {
		t.Fatalf("brand %+v %v", b, err)
	}
	if _, err := w.ProductTerms(context.Background(), d, "B0NOPE", 50); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown ASIN: %v", err)
	}
}

func TestWorkspacesAreSeparate(t *testing.T) {
	w := openTemp(t)
	load(t, w, "one", week(0, map[string]int{"a": 1}))
	if all, _ := w.Datasets(context.Background(), "two"); len(all) != 0 {
		t.Fatalf("workspace two sees %v", all)
	}
	d := dataset(t, w, "one")
	if _, err := w.DatasetByID(context.Background(), "two", d.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("another workspace's dataset by id: %v", err)
	}
}

// The term ranges cover 0..maxID once, in order, each at most the size asked, as few as will do.
func TestTermRanges(t *testing.T) {
	for _, c := range []struct{ maxID, most int64 }{{0, 10}, {9, 10}, {10, 10}, {3_050_000, 1_000_000}, {3_050_000, 1_600_000}, {2_999_999, 1_000_000}} {
		ranges := termRanges(c.maxID, c.most)
		next := int64(0)
		for _, r := range ranges {
			if r[0] != next || r[1] < r[0] || r[1]-r[0]+1 > c.most {
				t.Fatalf("%+v: %v", c, ranges)
			}
			next = r[1] + 1
		}
		if next != c.maxID+1 || int64(len(ranges)) != (c.maxID+c.most)/c.most {
			t.Fatalf("%+v: %v", c, ranges)
		}
	}
}

// Brands and categories are numbered while the rows are staged: each name is stored once
// however many imports and rows bring it, a refused import adds none, and a lenient import
// does not add the names only a dropped row carried.
func TestBrandAndCategoryNamesAreStoredOnce(t *testing.T) {
	w := openTemp(t)
	names := func() (all []string) {
		rows, err := w.db.Query(`select 'b:' || name from brand union all select 'c:' || name from category order by 1`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var n string
			rows.Scan(&n)
			all = append(all, n)
		}
		return all
	}
	withNames := func(src *memSource, extra ...report.Row) *memSource {
		for i := range src.rows {
			src.rows[i].Brands = [3]string{"Acme", "Zed"}
			src.rows[i].Categories = [3]string{"Home"}
		}
		src.rows = append(src.rows, extra...)
		return src
	}
	dropped := report.Row{Line: 99, Term: "a", Rank: 7, Brands: [3]string{"Only In A Dropped Row"}, Categories: [3]string{"Dropped Category"}}
	broken := withNames(week(0, map[string]int{"a": 1, "b": 2}), dropped)
	if _, err := w.Import(context.Background(), broken, ImportOptions{Workspace: "ws"}); err == nil {
		t.Fatal("a duplicate term was accepted")
	}
	if got := names(); len(got) != 0 {
		t.Fatalf("the refused import stored names: %v", got)
	}
	broken.i = 0
	if _, err := w.Import(context.Background(), broken, ImportOptions{Workspace: "ws", Lenient: true}); err != nil {
		t.Fatal(err)
	}
	newName := report.Row{Line: 50, Term: "c", Rank: 3, Brands: [3]string{"Zed", "Newco"}, Categories: [3]string{"Garden", "Home"}}
	load(t, w, "ws", withNames(week(1, map[string]int{"a": 2, "b": 1}), newName), withNames(week(2, map[string]int{"a": 1})))
	want := []string{"b:Acme", "b:Newco", "b:Zed", "c:Garden", "c:Home"}
	if got := names(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	d := dataset(t, w, "ws")
	h, err := w.TermHistories(context.Background(), d, []string{"c"})
	if err != nil || len(h) != 1 {
		t.Fatal(err)
	}
	p := h[0].Points[1]
	if fmt.Sprint(p.Brands, p.Categories) != "[Zed Newco] [Garden Home]" {
		t.Fatalf("week 2 of c: brands %v, categories %v", p.Brands, p.Categories)
	}
}
