package report

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// readErr opens content (named name) and reads every row; it returns the first error and the
// rows read before it.
func readErr(t *testing.T, name, content string, opts Options) ([]Row, error) {
	t.Helper()
	srcs, err := Open(writeFile(t, name, content), opts)
	if err != nil {
		return nil, err
	}
	defer srcs[0].Close()
	var rows []Row
	for {
		r, err := srcs[0].Next()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		rows = append(rows, r)
	}
}

// withoutColumn drops the column named col from every line of a CSV whose fields hold no
// commas (the tests' own rows).
func withoutColumn(header string, col int, lines ...string) string {
	var out []string
	for _, l := range append([]string{header}, lines...) {
		cells := strings.Split(strings.TrimSuffix(l, "\n"), ",")
		out = append(out, strings.Join(append(cells[:col:col], cells[col+1:]...), ","))
	}
	return strings.Join(out, "\n") + "\n"
}

func simpleTSTRow(rank, term string) string {
	return `"` + rank + `","` + term + `","B","","","Cat","","","B0AAAAAAAA","Title","5","1.5","B0BBBBBBBB","Two","4","2",,,,,"4/11/2026"` + "\n"
}

// A header lacking one of its layout's columns is refused, strict or lenient, naming line 2
// and the column as Amazon writes it (formats.md §11); the share is never imported as blank.
func TestMissingHeaderColumnIsRefused(t *testing.T) {
	const clickShare2 = 14 // Top Clicked Product #2: Click Share
	content := tstMeta + withoutColumn(strings.TrimSuffix(tstHeader, "\n"), clickShare2, simpleTSTRow("1", "a"), simpleTSTRow("2", "b"))
	walmart := withoutColumn("reportDate,searchKeyword,searchKeywordFrequencyRank,item1Id,item1Name,item1BrandName,item1ClickShare,item1ConversionShare,item2Id,item2Name,item2BrandName,item2ClickShare,item2ConversionShare,item3Id,item3Name,item3BrandName,item3ClickShare,item3ConversionShare",
		7, "2026-04-11,a,1,1,t,b,0.1,0.2,,,,,,,,,,")
	for _, lenient := range []bool{false, true} {
		_, err := readErr(t, "US_report.csv", content, Options{Lenient: lenient, Marketplace: "US"})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || pe.Column != "Top Clicked Product #2: Click Share" ||
			!strings.Contains(err.Error(), "line 2, column `Top Clicked Product #2: Click Share`") {
			t.Errorf("lenient %v: got %v (%+v), want line 2 naming the missing column", lenient, err, pe)
		}
		_, err = readErr(t, "walmart.csv", walmart, Options{Lenient: lenient})
		if !errors.As(err, &pe) || pe.Line != 1 || pe.Column != "item1ConversionShare" {
			t.Errorf("walmart, lenient %v: got %v, want line 1 naming item1ConversionShare", lenient, err)
		}
	}
}

// Lenient mode skips rows with bad values, never a broken file: an unclosed quote, a truncated
// last record or a row of the wrong width refuses the file, naming the line and the column by
// its header.
func TestLenientRefusesBrokenFiles(t *testing.T) {
	good := tstMeta + tstHeader + simpleTSTRow("1", "a") + simpleTSTRow("2", "b")
	cases := []struct {
		name, content string
		line          int
		column, want  string
	}{
		{"unclosed quote", good + `"3","c","Bran`, 5, "Top Clicked Brand #1", "the record ends inside a quoted field"},
		{"truncated between cells", good + `"3","c","B","","",`, 5, "Top Clicked Category #2", "truncated record"},
		{"short row in the middle", tstMeta + tstHeader + simpleTSTRow("1", "a") + `"2","b","B"` + "\n" + simpleTSTRow("3", "c"), 4, "Top Clicked Brands #2", "truncated record"},
		{"long row", good + strings.TrimSuffix(simpleTSTRow("3", "c"), "\n") + `,"x"` + "\n", 5, "", "22 cells"},
		{"quote in a title cut short", good + `"3","c","B","","","Cat","","","B0AAAAAAAA","A ""quoted"" title, cut`, 5, "Top Clicked Product #1: Product Title", "quoted field"},
	}
	for _, tc := range cases {
		for _, lenient := range []bool{false, true} {
			_, err := readErr(t, "US_report.csv", tc.content, Options{Lenient: lenient, Marketplace: "US"})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || pe.Column != tc.column || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, lenient %v: got %v (%+v), want line %d, column %q, %q", tc.name, lenient, err, pe, tc.line, tc.column, tc.want)
				continue
			}
			if tc.column != "" && !strings.Contains(err.Error(), "column `"+tc.column+"`") {
				t.Errorf("%s: %q does not name the column by its header", tc.name, err)
			}
			if strings.Contains(err.Error(), "column 3") || strings.Contains(err.Error(), "column 1") {
				t.Errorf("%s: %q names a character offset", tc.name, err)
			}
		}
	}
}

// Errors name the column by its header, not by its position, and carry line, column and
// value as separate JSON fields (the import job shows them).
func TestErrorsNameColumnsByHeader(t *testing.T) {
	_, err := readErr(t, "US_report.csv", tstMeta+tstHeader+simpleTSTRow("1", "a")+strings.Replace(simpleTSTRow("2", "b"), `"4","2"`, `"4x","2"`, 1), Options{Marketplace: "US"})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || pe.Column != "Top Clicked Product #2: Click Share" || pe.Value != "4x" {
		t.Fatalf("got %v (%+v)", err, pe)
	}
	if want := "line 4, column `Top Clicked Product #2: Click Share`: \"4x\""; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to start %q", err, want)
	}
	b, _ := json.Marshal(pe)
	var fields map[string]any
	json.Unmarshal(b, &fields)
	if fields["line"] != float64(4) || fields["column"] != "Top Clicked Product #2: Click Share" || fields["value"] != "4x" {
		t.Errorf("JSON %s", b)
	}
}

const spapiHead = `{"reportSpecification": {"reportType": "GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT", "reportOptions": {"reportPeriod": "WEEK"},
 "dataStartTime": "2026-04-05", "dataEndTime": "2026-04-11", "marketplaceIds": ["ATVPDKIKX0DER"]},
 "dataByDepartmentAndSearchTerm": [`

func spapiRec(term string, rank, slot int, asin string) string {
	b, _ := json.Marshal(map[string]any{"departmentName": "Amazon.com", "searchTerm": term, "searchFrequencyRank": rank,
		"clickedAsin": asin, "clickShareRank": slot, "clickShare": 0.1, "conversionShare": 0.05})
	return string(b)
}

// readWithin reads like readErr but fails the test if reading has not ended after a while:
// a truncated JSON document made the lenient reader loop for ever.
func readWithin(t *testing.T, name, content string, opts Options) ([]Row, error) {
	t.Helper()
	type result struct {
		rows []Row
		err  error
	}
	done := make(chan result, 1)
	go func() {
		rows, err := readErr(t, name, content, opts)
		done <- result{rows, err}
	}()
	select {
	case r := <-done:
		return r.rows, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: reading did not end", name)
		return nil, nil
	}
}

// A truncated SP-API document is refused in lenient mode too (it used to loop for ever),
// cut inside a record or after the last complete one.
func TestTruncatedSPAPIIsRefused(t *testing.T) {
	full := spapiHead + spapiRec("a", 1, 1, "B0AAAAAAAA") + "," + spapiRec("a", 1, 2, "B0BBBBBBBB") + "," + spapiRec("b", 2, 1, "B0CCCCCCCC") + "]}"
	cuts := map[string]string{
		"inside a record":       full[:strings.LastIndex(full, `"clickShareRank"`)],
		"after a record":        full[:len(full)-2],
		"after a comma":         full[:strings.LastIndex(full, "{")],
		"before the object end": full[:len(full)-1],
	}
	for name, content := range cuts {
		for _, lenient := range []bool{false, true} {
			_, err := readWithin(t, "report.json", content, Options{Lenient: lenient})
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "truncated") {
				t.Errorf("%s, lenient %v: got %v, want a truncated-file error", name, lenient, err)
			}
		}
	}
	if rows, err := readWithin(t, "report.json", full, Options{}); err != nil || len(rows) != 2 {
		t.Errorf("whole document: %d rows, %v", len(rows), err)
	}
}

// SP-API errors name the record number and the field, not a line.
func TestSPAPIErrorsNameTheRecord(t *testing.T) {
	content := spapiHead + spapiRec("a", 1, 1, "B0AAAAAAAA") + "," + spapiRec("b", 2, 1, "B0BBBBBBBB") + "," + spapiRec("b", 2, 7, "B0CCCCCCCC") + "]}"
	_, err := readErr(t, "report.json", content, Options{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Record != 3 || pe.Line != 0 || pe.Column != "clickShareRank" || pe.Value != "7" {
		t.Fatalf("got %v (%+v), want record 3, clickShareRank", err, pe)
	}
	if !strings.HasPrefix(err.Error(), "record 3, field `clickShareRank`") || strings.Contains(err.Error(), "line") {
		t.Errorf("message %q", err)
	}
	// In lenient mode the bad record is skipped, the rest kept.
	rows, err := readErr(t, "report.json", content, Options{Lenient: true})
	if err != nil || len(rows) != 2 {
		t.Errorf("lenient: %d rows, %v", len(rows), err)
	}
	// A value of the wrong type is a bad value too, named by its record.
	content = spapiHead + spapiRec("a", 1, 1, "B0AAAAAAAA") + `,{"departmentName": "Amazon.com", "searchTerm": "b", "searchFrequencyRank": "two", "clickShareRank": 1}]}`
	if _, err := readErr(t, "report.json", content, Options{}); !errors.As(err, &pe) || pe.Record != 2 || pe.Column != "searchFrequencyRank" {
		t.Errorf("wrong type: got %v (%+v)", err, pe)
	}
	if rows, err := readWithin(t, "report.json", content, Options{Lenient: true}); err != nil || len(rows) != 1 {
		t.Errorf("wrong type, lenient: %d rows, %v", len(rows), err)
	}
}

// A term's records need not be adjacent: each run of them is a row holding its slots, and
// the warehouse groups a term's rows (warehouse tests). Records never overwrite one another:
// a slot given twice in a run ends the run, so the warehouse sees both.
func TestSPAPIRecordsOutOfOrder(t *testing.T) {
	content := spapiHead + strings.Join([]string{spapiRec("a", 1, 1, "B0AAAAAAAA"), spapiRec("b", 2, 1, "B0BBBBBBBB"),
		spapiRec("a", 1, 2, "B0CCCCCCCC"), spapiRec("a", 1, 2, "B0DDDDDDDD")}, ",") + "]}"
	rows, err := readErr(t, "report.json", content, Options{})
	if err != nil || len(rows) != 4 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if rows[2].Term != "a" || rows[2].Line != 3 || rows[2].Products[1].ASIN != "B0CCCCCCCC" || rows[2].Products[0].ASIN != "" ||
		rows[3].Line != 4 || rows[3].Products[1].ASIN != "B0DDDDDDDD" {
		t.Errorf("rows %+v", rows)
	}
}

// A file's share unit is decided once (formats.md §7): in a Walmart file where any share is
// above 1, every share is in percent points, so 0.50 is 0.005, never 0.5.
func TestShareUnitIsDecidedPerFile(t *testing.T) {
	head := "reportDate,searchKeyword,searchKeywordFrequencyRank,item1Id,item1Name,item1BrandName,item1ClickShare,item1ConversionShare,item2Id,item2Name,item2BrandName,item2ClickShare,item2ConversionShare,item3Id,item3Name,item3BrandName,item3ClickShare,item3ConversionShare\n"
	percent := head + "2026-04-11,a,1,11,t,b,0.50,0.25,12,u,c,0.40,0.10,,,,,\n" + "2026-04-11,b,2,13,t,b,31.53,22.97,14,u,c,11.25,7.80,,,,,\n"
	fractions := head + "2026-04-11,a,1,11,t,b,0.50,0.25,12,u,c,0.40,0.10,,,,,\n" + "2026-04-11,b,2,13,t,b,0.3153,0.2297,14,u,c,0.1125,0.0780,,,,,\n"
	for _, compress := range []bool{false, true} {
		name := "walmart.csv"
		p := writeFile(t, name, percent)
		if compress {
			p = gzipFile(t, p)
		}
		srcs, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var rows []Row
		for {
			r, err := srcs[0].Next()
			if err != nil {
				break
			}
			rows = append(rows, r)
		}
		srcs[0].Close()
		if len(rows) != 2 || !near(rows[0].Products[0].ClickShare, 0.005) || !near(rows[0].Products[1].ConversionShare, 0.001) ||
			!near(rows[1].Products[0].ClickShare, 0.3153) {
			t.Errorf("percent-point file (gzip %v): %+v", compress, rows)
		}
		for _, r := range rows {
			var sum float64
			for _, p := range r.Products {
				sum += math.Max(float64(p.ClickShare), 0)
			}
			if sum > 1 {
				t.Errorf("%q: click concentration %v above 1", r.Term, sum)
			}
		}
	}
	rows, err := readErr(t, "walmart.csv", fractions, Options{})
	if err != nil || !near(rows[0].Products[0].ClickShare, 0.5) || !near(rows[1].Products[0].ClickShare, 0.3153) {
		t.Errorf("fraction file: %+v %v", rows, err)
	}
}

// gzipFile writes a gzipped copy of path beside it and returns its path.
func gzipFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	out := path + ".gz"
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// A reader stuck on one bad row (it returns the same error again) ends a lenient read instead
// of being skipped for ever.
func TestLenientReadEndsWhenTheReaderIsStuck(t *testing.T) {
	calls := 0
	s := &Source{lenient: true, next: func() (Row, error) {
		calls++
		if calls > 1000 {
			return Row{}, io.EOF
		}
		return Row{}, &ParseError{Record: 7, Column: "clickShare", Expected: "stuck"}
	}}
	_, err := s.Next()
	var pe *ParseError
	if !errors.As(err, &pe) || !pe.Broken || pe.Record != 7 || calls != 2 {
		t.Errorf("got %v after %d reads, want the error as broken after 2", err, calls)
	}
}
