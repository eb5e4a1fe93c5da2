package warehouse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// importPath opens path (written under name in a temporary directory when content is given)
// and imports its report into workspace ws.
func importPath(t *testing.T, w *Warehouse, ws, path string, lenient bool) (*PeriodRecord, error) {
	t.Helper()
	srcs, err := report.Open(path, report.Options{Lenient: lenient})
	if err != nil {
		return nil, err
	}
	defer srcs[0].Close()
	return w.Import(context.Background(), srcs[0], ImportOptions{Workspace: ws, ImportedBy: "t", Lenient: lenient})
}

func writeReport(t *testing.T, name string, content []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A truncated file is refused in lenient mode too, and the period it names stays exactly as
// it was (it used to be replaced by the rows before the cut).
func TestLenientImportOfATruncatedFileLeavesThePeriod(t *testing.T) {
	w := openTemp(t)
	good := "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv"
	importFiles(t, w, "ws", good)
	d := dataset(t, w, "ws")
	before, err := w.DatasetSummary(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	c := counts(t, w)
	data, _ := os.ReadFile(good)
	cut := writeReport(t, filepath.Base(good), data[:len(data)-60]) // inside the last record
	_, err = importPath(t, w, "ws", cut, true)
	var pe *report.ParseError
	if !errors.As(err, &pe) || pe.Line == 0 || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("lenient import of a truncated file: %v, want a refusal naming the line", err)
	}
	after, _ := w.DatasetSummary(context.Background(), d)
	if fmt.Sprint(after.Periods) != fmt.Sprint(before.Periods) || counts(t, w) != c {
		t.Errorf("the period changed: %+v -> %+v", before.Periods, after.Periods)
	}
}

// Each term's records may lie anywhere in an SP-API document: shuffled, it imports exactly the
// rows (and product titles) the ordered document gives.
func TestSPAPIRecordsInAnyOrder(t *testing.T) {
	const sample = "../report/testdata/GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK_2026-04-05_2026-04-11.json"
	doc, records := spapiDoc(t, sample)
	// Every first product, then every second, then every third: no term's records adjacent.
	shuffled := slices.Clone(records)
	sort.SliceStable(shuffled, func(i, j int) bool {
		return shuffled[i]["clickShareRank"].(float64) < shuffled[j]["clickShareRank"].(float64)
	})
	w := openTemp(t)
	rec, err := importPath(t, w, "shuffled", writeSPAPI(t, doc, shuffled), false)
	if err != nil {
		t.Fatal(err)
	}
	ordered := importFiles(t, w, "ordered", sample)
	if rec.Rows != 100 || rec.TermsWith != ordered.TermsWith || rec.DeepestRank != ordered.DeepestRank {
		t.Errorf("period record %+v, ordered %+v", rec, ordered)
	}
	if a, b := factsOf(t, w, "shuffled"), factsOf(t, w, "ordered"); a != b {
		t.Errorf("shuffled document's rows differ:\n%s\nordered:\n%s", a, b)
	}
	// The shuffled import came first: every title it stored is its product's own.
	titles := map[string]string{}
	for _, r := range records {
		if name, ok := r["clickedItemName"].(string); ok {
			titles[r["clickedAsin"].(string)] = name
		}
	}
	rows, err := w.db.Query(`select asin, coalesce(title, '') from asin`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var asin, title string
		rows.Scan(&asin, &title)
		if title != titles[asin] {
			t.Errorf("%s titled %q, want %q", asin, title, titles[asin])
		}
	}
}

// Two records for one (department, term, slot), or a term whose records disagree on its rank,
// are refused naming both records; lenient imports drop the later one and say so.
func TestSPAPIDuplicateSlotsAndRanks(t *testing.T) {
	const sample = "../report/testdata/GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK_2026-04-05_2026-04-11.json"
	doc, records := spapiDoc(t, sample)
	again := map[string]any{}
	for k, v := range records[1] { // paper towels, slot 2
		again[k] = v
	}
	again["clickedAsin"] = "B0DUPLICATE"
	otherRank := map[string]any{}
	for k, v := range records[0] {
		otherRank[k] = v
	}
	otherRank["clickShareRank"], otherRank["searchFrequencyRank"] = float64(3), float64(99)
	for _, tc := range []struct {
		name   string
		extra  map[string]any
		column string
		want   string
	}{
		{"slot twice", again, "searchTerm", "clickShareRank 2 of this term is already in record 2"},
		{"another rank", otherRank, "searchFrequencyRank", "record 1 gives 4"},
	} {
		withExtra := append(slices.Clone(records[:10]), tc.extra)
		withExtra = append(withExtra, records[10:]...) // record 11, apart from the term's others
		path := writeSPAPI(t, doc, withExtra)
		w := openTemp(t)
		_, err := importPath(t, w, "ws", path, false)
		var pe *report.ParseError
		if !errors.As(err, &pe) || pe.Record != 11 || pe.Line != 0 || pe.Column != tc.column || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (%+v), want record 11, %s, %q", tc.name, err, pe, tc.column, tc.want)
			continue
		}
		rec, err := importPath(t, w, "ws", path, true)
		if err != nil || rec.Rows != 100 || len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "record 11") {
			t.Errorf("%s, lenient: %+v %v", tc.name, rec, err)
			continue
		}
		if facts := factsOf(t, w, "ws"); strings.Contains(facts, "B0DUPLICATE") || strings.Contains(facts, "|99|") {
			t.Errorf("%s: the dropped record was imported", tc.name)
		}
	}
}

func spapiDoc(t *testing.T, path string) (map[string]any, []map[string]any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var records []map[string]any
	for _, r := range doc["dataByDepartmentAndSearchTerm"].([]any) {
		records = append(records, r.(map[string]any))
	}
	return doc, records
}

func writeSPAPI(t *testing.T, doc map[string]any, records []map[string]any) string {
	t.Helper()
	// The specification first, as the reader requires (maps would marshal in key order).
	spec, err := json.Marshal(doc["reportSpecification"])
	if err != nil {
		t.Fatal(err)
	}
	recs, err := json.Marshal(records)
	if err != nil {
		t.Fatal(err)
	}
	data := `{"reportSpecification": ` + string(spec) + `, "dataByDepartmentAndSearchTerm": ` + string(recs) + `}`
	return writeReport(t, "GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK_2026-04-05_2026-04-11.json", []byte(data))
}

// factsOf lists a workspace's rows by term with product codes and shares, one line each.
func factsOf(t *testing.T, w *Warehouse, ws string) string {
	t.Helper()
	rows, err := w.db.Query(`select t.term || '|' || f.rank || '|' || concat_ws('|', coalesce(a1.asin, '-'), coalesce(a2.asin, '-'), coalesce(a3.asin, '-'),
			f.click1, f.click2, f.click3, f.conv1, f.conv2, f.conv3)
		from fact f join dataset d on d.id = f.dataset_id join term t on t.dataset_id = f.dataset_id and t.id = f.term_id
		left join asin a1 on a1.id = f.asin1 left join asin a2 on a2.id = f.asin2 left join asin a3 on a3.id = f.asin3
		where d.workspace = ? order by t.term`, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

// Rank ties are imported, with a warning naming the lines (formats.md §11).
func TestRankTiesAreImportedWithAWarning(t *testing.T) {
	w := openTemp(t)
	src := week(0, nil)
	for i, r := range []struct {
		term string
		rank int32
	}{{"a", 1}, {"b", 2}, {"c", 2}, {"d", 3}, {"e", 2}, {"f", 4}} {
		src.rows = append(src.rows, report.Row{Line: 3 + i, Term: r.term, Rank: r.rank})
	}
	rec := load(t, w, "ws", src)
	if rec.Rows != 6 || len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "lines 4, 5, 7 share rank 2") {
		t.Errorf("record %+v", rec)
	}
	if rec := load(t, w, "ws", week(1, map[string]int{"a": 1, "b": 2})); len(rec.Warnings) != 0 {
		t.Errorf("no ties, warnings %v", rec.Warnings)
	}
}

// A duplicate term names the second line, the term column and the first line.
func TestDuplicateTermNamesLineColumnAndFirstLine(t *testing.T) {
	w := openTemp(t)
	src := week(0, map[string]int{"a": 1, "b": 2})
	src.rows = append(src.rows, report.Row{Line: 9, Term: "a", Rank: 3}, report.Row{Line: 12, Term: "a", Rank: 4})
	_, err := w.Import(context.Background(), src, ImportOptions{Workspace: "ws"})
	var pe *report.ParseError
	if !errors.As(err, &pe) || pe.Line != 9 || pe.Column != "Search Term" || pe.Value != "a" || !strings.Contains(pe.Expected, "already on line ") {
		t.Fatalf("duplicate: %v (%+v)", err, pe)
	}
	first := src.rows[0].Line
	if src.rows[0].Term != "a" {
		first = src.rows[1].Line
	}
	if !strings.HasSuffix(err.Error(), fmt.Sprintf("already on line %d", first)) {
		t.Errorf("message %q does not name the first line %d", err, first)
	}
}

// Blank is not zero: a term whose products carry no conversion share has no conversion
// concentration (nil in the API, empty in the export), and the same for click shares.
func TestBlankSharesGiveNoConcentration(t *testing.T) {
	w := openTemp(t)
	importFiles(t, w, "ws", "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	d := dataset(t, w, "ws")
	kindle := termRow(t, w, d, "kindle unlimited books")
	if kindle.ConvConc != nil || kindle.ClickConc == nil || math.Abs(*kindle.ClickConc-(0.407+0.2101+0.1924)) > 1e-9 {
		t.Errorf("kindle unlimited books: click %v, conversion %v; want 0.8095 and none", kindle.ClickConc, kindle.ConvConc)
	}
	towels := termRow(t, w, d, "paper towels")
	if towels.ConvConc == nil || *towels.ConvConc <= 0 {
		t.Errorf("paper towels: conversion concentration %v", towels.ConvConc)
	}
	var exported *TermRow
	err := w.ExportTerms(context.Background(), d, ExploreQuery{Search: "kindle unlimited", Window: 4}, func(r TermRow) error {
		exported = &r
		return nil
	})
	if err != nil || exported == nil || exported.ConvConc != nil || exported.ClickConc == nil {
		t.Errorf("export: %+v %v", exported, err)
	}
	// A term with a product whose share is blank beside one that has it: the sum is unknown.
	load(t, w, "mem", week(0, map[string]int{"a": 1}))
	a := termRow(t, w, dataset(t, w, "mem"), "a")
	if a.ClickConc == nil || *a.ClickConc != 0.375 || a.ConvConc != nil {
		t.Errorf("a: click %v (want 0.375), conversion %v (want none: product 2's is blank)", a.ClickConc, a.ConvConc)
	}
}

// The closer ratio (conversion share / click share) is in every product-per-period answer.
func TestCloserRatio(t *testing.T) {
	w := openTemp(t)
	src := week(0, map[string]int{"a": 1})
	src.rows[0].Products[2] = report.Product{ASIN: "B0TEST0003", ClickShare: 0, ConversionShare: 0.1}
	b := report.Row{Line: 9, Term: "b", Rank: 2}
	b.Products[0] = report.Product{ASIN: "B0TEST0001", ClickShare: 0.2, ConversionShare: 0}
	src.rows = append(src.rows, b)
	load(t, w, "ws", src)
	d := dataset(t, w, "ws")
	h, err := w.TermHistories(context.Background(), d, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	ratios := func(ps []ProductShare) string {
		var out []string
		for _, p := range ps {
			if p.CloserRatio == nil {
				out = append(out, "null")
			} else {
				out = append(out, fmt.Sprint(*p.CloserRatio))
			}
		}
		return strings.Join(out, " ")
	}
	// 0.5/0.25; blank conversion; click share 0; conversion 0.
	if got := ratios(h[0].Points[0].Products); got != "2 null null" {
		t.Errorf("a's closer ratios %s, want 2 null null", got)
	}
	if got := ratios(h[1].Points[0].Products); got != "0" {
		t.Errorf("b's closer ratio %s, want 0", got)
	}
	p, err := w.ProductTerms(context.Background(), d, "B0TEST0001", 10)
	if err != nil || len(p.Terms) != 2 {
		t.Fatalf("product %+v %v", p, err)
	}
	for _, ts := range p.Terms {
		want := map[string]float64{"a": 2, "b": 0}[ts.Term]
		if r := ts.Points[0].CloserRatio; r == nil || *r != want {
			t.Errorf("product page, %q: closer ratio %v, want %v", ts.Term, r, want)
		}
	}
}

// "New" compares with the loaded periods of the last 4 before the latest, however few (at
// least 1), and says how many it compared.
func TestNewWithFewerThanFourEarlierPeriods(t *testing.T) {
	w := openTemp(t)
	load(t, w, "ws", week(0, map[string]int{"old": 1, "deep": 100}))
	d := dataset(t, w, "ws")
	if n := termRow(t, w, d, "old"); n.New {
		t.Error("nothing is new in the first period: there is nothing to compare with")
	}
	load(t, w, "ws", week(1, map[string]int{"old": 1, "deep": 100, "newcomer": 50, "beyond": 150}))
	if n := termRow(t, w, d, "newcomer"); !n.New {
		t.Error("newcomer, absent from the one earlier period and ranked above its deepest rank, is new")
	}
	if n := termRow(t, w, d, "beyond"); n.New {
		t.Error("a term ranked below the earlier period's deepest rank is not new")
	}
	page, err := w.Explore(context.Background(), d, ExploreQuery{List: "new", Window: 4, Sort: "rank", Limit: 10})
	if err != nil || page.Total != 1 || page.NewCompared != 1 {
		t.Errorf("new list %+v %v, want newcomer, compared with 1 period", page, err)
	}
	// A gap: weeks 0, 1 and 3 are loaded; week 3 compares with weeks 0 and 1.
	load(t, w, "ws", week(3, map[string]int{"old": 1, "deep": 100, "newcomer": 40, "later": 30}))
	s, err := w.DatasetSummary(context.Background(), d)
	if err != nil || s.NewCompared != 2 {
		t.Errorf("summary says %d periods compared, want 2 (%v)", s.NewCompared, err)
	}
	if n := termRow(t, w, d, "later"); !n.New {
		t.Error("later is new")
	}
	if n := termRow(t, w, d, "newcomer"); n.New {
		t.Error("newcomer was in week 1")
	}
}

// Past periods' measures stay readable: asked at an earlier period, a list answers exactly what
// it answered when that period was the latest, and a history the measures as they stood then
// (computed from the history itself, by the same definitions).
func TestMeasuresAtAPastPeriod(t *testing.T) {
	defer func(n int64) { pastChunk = n }(pastChunk)
	pastChunk = 7 // the past period's ~100 terms in many statements
	w := openTemp(t)
	files := seriesFiles(t, 8)
	importFiles(t, w, "ws", files[:5]...)
	d := dataset(t, w, "ws")
	ctx := context.Background()
	asJSON := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	queries := []ExploreQuery{
		{Sort: "term", Window: 4, Limit: MaxPage},
		{List: "new", Window: 4, Sort: "rank", Limit: MaxPage},
		{List: "risers", Window: 1, Sort: "change1", Desc: true, Limit: 20, Offset: 3},
		{Search: "tumbler", Sort: "clickConcentration", Window: 4, Limit: 50, Brand: "Zentrova"},
	}
	var then []string
	for _, q := range queries {
		p, err := w.Explore(ctx, d, q)
		if err != nil {
			t.Fatal(err)
		}
		then = append(then, asJSON(p))
		if len(p.Rows) == 0 {
			t.Fatalf("query %+v: no rows in week 5", q)
		}
	}
	all, _ := w.Explore(ctx, d, queries[0])
	if len(all.Rows) < 90 {
		t.Fatalf("%d terms in week 5", len(all.Rows))
	}
	var exported []TermRow
	if err := w.ExportTerms(ctx, d, queries[0], func(r TermRow) error { exported = append(exported, r); return nil }); err != nil {
		t.Fatal(err)
	}
	// The histories' own measures agree with the stored ones of the latest period.
	checkHistoryMeasures(t, w, d, time.Time{}, all.Rows)

	importFiles(t, w, "ws", files[5:]...)
	week5 := all.Rows[0]
	at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC) // a Wednesday of week 5 (2026-03-29..04-04)
	for i, q := range queries {
		q.At = at
		p, err := w.Explore(ctx, d, q)
		if err != nil {
			t.Fatal(err)
		}
		if got := asJSON(p); got != then[i] {
			t.Errorf("query %+v at week 5:\n got %.600s\nwant %.600s", queries[i], got, then[i])
		}
	}
	if now, _ := w.Explore(ctx, d, queries[0]); asJSON(now) == then[0] {
		t.Fatal("the latest period answers as week 5 did: the test proves nothing")
	}
	var past []TermRow
	q := queries[0]
	q.At = at
	if err := w.ExportTerms(ctx, d, q, func(r TermRow) error { past = append(past, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if asJSON(past) != asJSON(exported) {
		t.Error("the export at week 5 differs from week 5's export")
	}
	checkHistoryMeasures(t, w, d, at, all.Rows)
	h, err := w.TermHistoriesAt(ctx, d, []string{week5.Term}, at)
	if err != nil || len(h[0].Points) != 5 || !h[0].Points[4].Start.Equal(time.Date(2026, 3, 29, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("history at week 5 should end at week 5: %+v %v", h, err)
	}
	for _, bad := range []time.Time{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)} {
		if _, err := w.Explore(ctx, d, ExploreQuery{At: bad, Window: 4, Limit: 10}); !errors.Is(err, ErrNoPeriod) {
			t.Errorf("explore at %s: %v, want ErrNoPeriod", bad, err)
		}
		if _, err := w.TermHistoriesAt(ctx, d, []string{"yoga mat"}, bad); !errors.Is(err, ErrNoPeriod) {
			t.Errorf("history at %s: %v, want ErrNoPeriod", bad, err)
		}
	}
}

// checkHistoryMeasures compares the measures of each row's history at day at (zero: the
// latest) with the row.
func checkHistoryMeasures(t *testing.T, w *Warehouse, d *Dataset, at time.Time, rows []TermRow) {
	t.Helper()
	for start := 0; start < len(rows); start += MaxCompare {
		batch := rows[start:min(start+MaxCompare, len(rows))]
		var terms []string
		for _, r := range batch {
			terms = append(terms, r.Term)
		}
		h, err := w.TermHistoriesAt(context.Background(), d, terms, at)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range batch {
			m := h[i].Measures
			if m == nil {
				t.Fatalf("%q: no measures", r.Term)
			}
			got := fmt.Sprint(m.Rank, ints(m.Ranks[:]), floats(m.Changes[:]), m.PeriodsPresent, m.New, m.Breakout, floats([]*float64{m.ClickConc, m.ConvConc, m.ComingUp}), ints(m.Spark))
			want := fmt.Sprint(r.Rank, ints(r.Ranks[:]), floats(r.Changes[:]), r.PeriodsPresent, r.New, r.Breakout, floats([]*float64{r.ClickConc, r.ConvConc, r.ComingUp}), ints(r.Spark))
			if got != want {
				t.Errorf("%q at %v: history's measures %s, the list's %s", r.Term, at, got, want)
			}
		}
	}
}

func ints(ps []*int) string {
	var out []string
	for _, p := range ps {
		if p == nil {
			out = append(out, "-")
		} else {
			out = append(out, fmt.Sprint(*p))
		}
	}
	return strings.Join(out, ",")
}

func floats(ps []*float64) string {
	var out []string
	for _, p := range ps {
		if p == nil {
			out = append(out, "-")
		} else {
			out = append(out, fmt.Sprintf("%.9f", *p))
		}
	}
	return strings.Join(out, ",")
}

// A store written when a blank share counted as 0 gets its concentrations recomputed once, on
// open: the demo workspace, generated once, would otherwise keep them until its next import.
func TestOldConcentrationsAreRecomputedOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w := openAt(t, path)
	importFiles(t, w, "ws", "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv", "testdata/US_Top_Search_Terms_Simple_Week_2026_04_18.csv")
	// As the earlier code wrote them.
	for _, q := range []string{`update term_stats set conv_conc = coalesce(conv_conc, 0), click_conc = coalesce(click_conc, 0)`,
		`update overview_rows set conv_conc = coalesce(conv_conc, 0), click_conc = coalesce(click_conc, 0)`, `delete from store_upgrades`} {
		if _, err := w.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	d := dataset(t, w, "ws")
	if r := termRow(t, w, d, "kindle unlimited books"); r.ConvConc == nil || *r.ConvConc != 0 {
		t.Fatalf("the old store's value: %v", r.ConvConc)
	}
	closeChecked(t, w)
	w = openAt(t, path)
	defer closeChecked(t, w)
	if r := termRow(t, w, d, "kindle unlimited books"); r.ConvConc != nil || r.ClickConc == nil {
		t.Errorf("after reopening: click %v, conversion %v", r.ClickConc, r.ConvConc)
	}
	var rows, differ int
	w.db.QueryRow(`select count(*), count(*) filter (where o.conv_conc is distinct from s.conv_conc or o.click_conc is distinct from s.click_conc)
		from overview_rows o join term_stats s on s.dataset_id = o.dataset_id and s.term_id = o.term_id`).Scan(&rows, &differ)
	if rows == 0 || differ != 0 {
		t.Errorf("%d of %d overview rows differ from the terms' measures", differ, rows)
	}
}
