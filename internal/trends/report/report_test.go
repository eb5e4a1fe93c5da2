package report

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readAll opens path and returns its single report's meta and rows.
func readAll(t *testing.T, path string, opts Options) (Meta, []Row) {
	t.Helper()
	srcs, err := Open(path, opts)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	if len(srcs) != 1 {
		t.Fatalf("%s: %d reports, want 1", path, len(srcs))
	}
	defer srcs[0].Close()
	var rows []Row
	for {
		r, err := srcs[0].Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		rows = append(rows, r)
	}
	return srcs[0].Meta(), rows
}

func find(rows []Row, term string) Row {
	for _, r := range rows {
		if r.Term == term {
			return r
		}
	}
	return Row{}
}

func near(a float32, b float64) bool { return math.Abs(float64(a)-b) < 1e-6 }

func TestSampleFiles(t *testing.T) {
	apr5, _ := ParsePeriod("2026-04-05..2026-04-11")
	cases := []struct {
		file       string
		opts       Options
		layout     Layout
		market     string
		period     string
		rows       int
		term       string
		rank       int32
		asin1      string
		click1     float64
		brand1     string
		department string
	}{
		{"US_Top_Search_Terms_Simple_Week_2026_04_11.csv", Options{}, LayoutAmazonTST, "amazon.com", "week 2026-04-05..2026-04-11", 100, "paper towels", 4, "B0DJOYKVJ9", 0.3862, "Juniper & Jade", ""},
		{"US_Top_Search_Terms_Simple_Month_2026_03_31.csv", Options{}, LayoutAmazonTST, "amazon.com", "month 2026-03-01..2026-03-31", 60, "paper towels", 4, "B0DJOYKVJ9", 0.2092, "Juniper & Jade", ""},
		{"US_Top_Search_Terms_Simple_Quarter_2026_03_31.csv", Options{}, LayoutAmazonTST, "amazon.com", "quarter 2026-01-01..2026-03-31", 50, "paper towels", 6, "B0DJOYKVJ9", 0.2092, "Juniper & Jade", ""},
		{"UK_Top_Search_Terms_Simple_Week_2026_04_11.csv", Options{}, LayoutAmazonTST, "amazon.co.uk", "week 2026-04-05..2026-04-11", 38, "crème brûlée torch", 0, "", 0, "", ""},
		{"top_search_terms_export_no_metadata.csv", Options{Marketplace: "amazon.com", Period: &apr5}, LayoutAmazonTST, "amazon.com", "week 2026-04-05..2026-04-11", 40, "paper towels", 4, "B0DJOYKVJ9", 0.3862, "Juniper & Jade", ""},
		{"US_Top_Search_Terms_Simple_Week_2026_04_25.csv.gz", Options{}, LayoutAmazonTST, "amazon.com", "week 2026-04-19..2026-04-25", 101, "", 0, "", 0, "", ""},
		{"GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK_2026-04-05_2026-04-11.json", Options{}, LayoutAmazonSPAPI, "amazon.com", "week 2026-04-05..2026-04-11", 100, "paper towels", 4, "B0DJOYKVJ9", 0.3862, "", "Amazon.com"},
		{"US_Amazon_Search_Terms_Weekly_2022_05_21.csv", Options{}, LayoutAmazonDept, "amazon.com", "week 2022-05-15..2022-05-21", 60, "paper towels", 3, "B0WZQ7ADD9", 0.2961, "", "Amazon.com"},
		{"walmart_top_search_trends_2026-04-11.csv", Options{}, LayoutWalmartTST, "walmart.com", "week 2026-04-05..2026-04-11", 40, "paper towels", 2, "1961559173", 0.3153, "Corevia", ""},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			meta, rows := readAll(t, filepath.Join("testdata", tc.file), tc.opts)
			if meta.Layout != tc.layout || meta.Marketplace != tc.market || meta.Period.String() != tc.period {
				t.Errorf("meta %+v, want %s %s %s", meta, tc.layout, tc.market, tc.period)
			}
			if len(rows) != tc.rows {
				t.Errorf("%d rows, want %d", len(rows), tc.rows)
			}
			if tc.term == "" {
				return
			}
			r := find(rows, tc.term)
			if r.Term == "" {
				t.Fatalf("term %q not found", tc.term)
			}
			if tc.rank > 0 && (r.Rank != tc.rank || r.Products[0].ASIN != tc.asin1 || !near(r.Products[0].ClickShare, tc.click1) || r.Brands[0] != tc.brand1 || r.Department != tc.department) {
				t.Errorf("row %+v", r)
			}
		})
	}
}

// The SP-API JSON and the CSV of the same week give the same rows, brands and categories aside.
func TestSPAPIMatchesCSV(t *testing.T) {
	_, csvRows := readAll(t, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv", Options{})
	_, jsonRows := readAll(t, "testdata/GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT_WEEK_2026-04-05_2026-04-11.json", Options{})
	if len(csvRows) != len(jsonRows) {
		t.Fatalf("%d CSV rows, %d JSON rows", len(csvRows), len(jsonRows))
	}
	for i, c := range csvRows {
		j := jsonRows[i]
		if c.Term != j.Term || c.Rank != j.Rank {
			t.Fatalf("row %d: %q/%d vs %q/%d", i, c.Term, c.Rank, j.Term, j.Rank)
		}
		for n := range 3 {
			cp, jp := c.Products[n], j.Products[n]
			conv := near(cp.ConversionShare, float64(jp.ConversionShare)) || (cp.ConversionShare == NoShare && jp.ConversionShare == 0)
			if cp.ASIN != jp.ASIN || cp.Title != jp.Title || !near(cp.ClickShare, float64(jp.ClickShare)) || !conv {
				t.Errorf("%q product %d: CSV %+v, JSON %+v", c.Term, n+1, cp, jp)
			}
		}
	}
}

func TestEdgeCases(t *testing.T) {
	_, rows := readAll(t, "testdata/UK_Top_Search_Terms_Simple_Week_2026_04_11.csv", Options{})
	for _, r := range rows {
		if strings.ContainsAny(r.Term, "\r\ufeff") || strings.HasPrefix(r.Term, "\"") {
			t.Errorf("BOM/CRLF leaked into %q", r.Term)
		}
	}
	_, rows = readAll(t, "testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv", Options{})
	if r := find(rows, "kindle unlimited books"); r.Products[0].ConversionShare != NoShare || r.Categories[0] != "Digital_Ebook_Purchase" {
		t.Errorf("blank share should be NoShare: %+v", r)
	}
	if r := find(rows, "paper towels"); r.Products[0].Title != `Juniper & Jade Cordless Paper Towels, 12" x 18", Oeko-Tex Certified` {
		t.Errorf("doubled quotes: %q", r.Products[0].Title)
	}
	srcs, err := Open("testdata/US_Top_Search_Terms_Simple_Week_2026_04_25.zip", Options{})
	if err != nil || len(srcs) != 1 || srcs[0].Meta().Period.String() != "week 2026-04-19..2026-04-25" {
		t.Fatalf("zip: %v %v", srcs, err)
	}
	srcs[0].Close()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const tstHeader = `"Search Frequency Rank","Search Term","Top Clicked Brand #1","Top Clicked Brands #2","Top Clicked Brands #3","Top Clicked Category #1","Top Clicked Category #2","Top Clicked Category #3","Top Clicked Product #1: ASIN","Top Clicked Product #1: Product Title","Top Clicked Product #1: Click Share","Top Clicked Product #1: Conversion Share","Top Clicked Product #2: ASIN","Top Clicked Product #2: Product Title","Top Clicked Product #2: Click Share","Top Clicked Product #2: Conversion Share","Top Clicked Product #3: ASIN","Top Clicked Product #3: Product Title","Top Clicked Product #3: Click Share","Top Clicked Product #3: Conversion Share","Reporting Date"` + "\n"
const tstMeta = `"Reporting Range=[""Weekly""]","Select week=[""Week 15 | 2026-04-05 - 2026-04-11 2026""]",,,,,,,,,,,,,,,,,,,` + "\n"

func tstRow(rank, term, share string) string {
	return `"` + rank + `","` + term + `","B","","","Cat","","","B0AAAAAAAA","A ""quoted"" title` + "\n" + `on two lines","` + share + `","10.5",,,,,,,,,"4/11/2026"` + "\n"
}

func TestRejections(t *testing.T) {
	apr12, _ := ParsePeriod("2026-04-12..2026-04-18")
	cases := []struct {
		name, content string
		opts          Options
		wantLine      int
		want          string
	}{
		{"search query performance", readSample(t, "US_Search_Query_Performance_Brand_View_Simple_Week_2026_04_11.csv"), Options{}, 0, "Search Query Performance report, not a search-terms report"},
		{"empty", "", Options{}, 0, "empty file"},
		{"bad rank", tstMeta + tstHeader + tstRow("1", "a", "5") + tstRow("x2", "b", "5"), Options{Marketplace: "US"}, 5, "line 5, column `Search Frequency Rank`: \"x2\": expected a positive whole number"},
		{"zero rank", tstMeta + tstHeader + tstRow("0", "a", "5"), Options{Marketplace: "US"}, 3, "positive whole number"},
		{"blank term", tstMeta + tstHeader + tstRow("1", " ", "5"), Options{Marketplace: "US"}, 3, "search term (it is blank)"},
		{"bad share", tstMeta + tstHeader + tstRow("1", "a", "150"), Options{Marketplace: "US"}, 3, "Click Share"},
		{"nan share", tstMeta + tstHeader + tstRow("1", "a", "NaN"), Options{Marketplace: "US"}, 3, "Click Share"},
		{"truncated last line", tstMeta + tstHeader + tstRow("1", "a", "5") + `"2","b","Bran`, Options{Marketplace: "US"}, 5, "column `Top Clicked Brand #1`: the record ends inside a quoted field"},
		{"period conflict", tstMeta + tstHeader + tstRow("1", "a", "5"), Options{Marketplace: "US", Period: &apr12}, 0, "conflicts with the period you gave"},
		{"no marketplace", tstMeta + tstHeader + tstRow("1", "a", "5"), Options{}, 0, "does not say which marketplace"},
		{"no period", tstHeader + strings.Replace(tstRow("1", "a", "5"), "4/11/2026", "", 1), Options{Marketplace: "US"}, 0, "does not say which period"},
		{"unknown header", "a,b,c\n1,2,3\n", Options{}, 1, "not a search-terms report"},
		{"missing header", tstMeta, Options{}, 2, "missing header"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srcs, err := Open(writeFile(t, "report.csv", tc.content), tc.opts)
			if err == nil {
				defer srcs[0].Close()
				for err == nil {
					_, err = srcs[0].Next()
				}
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || pe.Line != tc.wantLine {
				t.Fatalf("got %v (line %d), want line %d with %q", err, lineOf(pe), tc.wantLine, tc.want)
			}
		})
	}
}

func TestLenientSkipsBadRows(t *testing.T) {
	content := tstMeta + tstHeader + tstRow("1", "a", "5") + tstRow("x", "b", "5") + tstRow("3", "c", "5")
	srcs, err := Open(writeFile(t, "US_report.csv", content), Options{Lenient: true, Marketplace: "US"})
	if err != nil {
		t.Fatal(err)
	}
	var terms []string
	for {
		r, err := srcs[0].Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		terms = append(terms, r.Term)
	}
	skipped, n := srcs[0].Skipped()
	if strings.Join(terms, ",") != "a,c" || n != 1 || skipped[0].Line != 5 {
		t.Errorf("terms %v, skipped %d %+v", terms, n, skipped)
	}
}

func readSample(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lineOf(pe *ParseError) int {
	if pe == nil {
		return -1
	}
	return pe.Line
}

func TestParsePeriod(t *testing.T) {
	for in, want := range map[string]string{
		"2026-04-05..2026-04-11": "week 2026-04-05..2026-04-11", "2026-04-08": "week 2026-04-05..2026-04-11",
		"2026-03": "month 2026-03-01..2026-03-31", "2026-Q1": "quarter 2026-01-01..2026-03-31", "2026-04-05..2026-04-05": "day 2026-04-05..2026-04-05",
	} {
		if p, err := ParsePeriod(in); err != nil || p.String() != want {
			t.Errorf("%s: %v %v, want %s", in, p, err, want)
		}
	}
	for _, bad := range []string{"", "2026-13", "2026-04-06..2026-04-12", "yesterday", "2026-02-30"} {
		if _, err := ParsePeriod(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
