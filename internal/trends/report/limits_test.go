package report

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	rt "github.com/sellertrends/sellertrends/internal/trends/report/reporttest"
)

// drain opens path and reads every row of every report; it returns the first error.
func drain(path string, opts Options) (rows int, err error) {
	srcs, err := Open(path, opts)
	if err != nil {
		return 0, err
	}
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	for _, s := range srcs {
		for {
			_, err := s.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return rows, err
			}
			rows++
		}
	}
	return rows, nil
}

const gib = 1 << 30

// Every bomb of the corpus fails with an error that says what is wrong (and where), quickly.
func TestHostileFilesFailClearly(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	head := rt.Piece{Data: []byte(rt.Meta + rt.Header)}
	good := rt.Piece{Data: rt.Report(3)}
	nested, err := rt.ZipBytes(dir, rt.Entry{Name: rt.WeekName, Pieces: []rt.Piece{good}})
	if err != nil {
		t.Fatal(err)
	}
	deep := nested
	for range 5 {
		if deep, err = rt.ZipBytes(dir, rt.Entry{Name: "inner.zip", Raw: deep}); err != nil {
			t.Fatal(err)
		}
	}
	many := make([]rt.Entry, 5000)
	for i := range many {
		many[i] = rt.Entry{Name: fmt.Sprintf("r%d.csv", i), Raw: []byte("x")}
	}
	fiftyOne := make([]rt.Entry, MaxZipReports+1)
	for i := range fiftyOne {
		fiftyOne[i] = rt.Entry{Name: fmt.Sprintf("US_Top_Search_Terms_Simple_Week_2026_04_%02d.csv", i), Pieces: []rt.Piece{good}}
	}
	cases := []struct {
		name  string
		make  func(path string) error
		opts  Options
		want  []string
		lines int // the line the error names, 0 if none
	}{
		{"long line (gzip, 1 GiB)", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: rt.Repeat("a", 1<<20), Times: gib >> 20})
		}, Options{}, []string{"more than 1 MiB without the end of a record"}, 3},
		{"long line after good rows", func(f string) error {
			return rt.GzipFile(f, good, rt.Piece{Data: rt.Repeat("b", 1<<20), Times: 64})
		}, Options{}, []string{"more than 1 MiB without the end of a record"}, 6},
		{"quoted cell that never closes", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: []byte(`"1","`)}, rt.Piece{Data: rt.Repeat("x\n", 1<<19), Times: 64})
		}, Options{Lenient: true}, []string{"more than 1 MiB without the end of a record"}, 0},
		{"long field", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: []byte(rt.Row(1, "a", strings.Repeat("t", 100<<10)))})
		}, Options{}, []string{"line 3", "top clicked product #1: product title", "at most 64 KiB in a cell"}, 3},
		{"whitespace flood (gzip, 1 GiB of spaces)", func(f string) error {
			return rt.GzipFile(f, rt.Piece{Data: rt.Repeat(" ", 1<<20), Times: gib >> 20})
		}, Options{}, []string{"flood of blank space"}, 1},
		{"blank lines flood after the header", func(f string) error {
			return rt.GzipFile(f, good, rt.Piece{Data: rt.Repeat("\n", 1<<20), Times: gib >> 20})
		}, Options{}, []string{"more than 1 MiB without the end of a record"}, 0},
		{"whitespace zip (4 GiB of spaces)", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Pieces: []rt.Piece{{Data: rt.Repeat(" ", 1<<20), Times: 4 * gib >> 20}}})
		}, Options{}, []string{"expands to more than", "decompression bomb"}, 0},
		{"gzip bomb of good rows", func(f string) error {
			return rt.GzipFile(f, head, rt.Piece{Data: []byte(strings.Repeat(rt.Row(7, "same", "Title"), 5000)), Times: 200})
		}, Options{}, []string{"expands to more than", "decompression bomb"}, 0},
		{"zip bomb (1 GiB of zeros)", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Pieces: []rt.Piece{{Data: make([]byte, 1<<20), Times: gib >> 20}}})
		}, Options{}, []string{"expands to more than", "decompression bomb"}, 0},
		{"zip that understates its size", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Declared: 1000, Pieces: []rt.Piece{head, {Data: []byte(strings.Repeat(rt.Row(7, "same", "Title"), 5000)), Times: 200}}})
		}, Options{}, []string{"zip: not a valid zip file"}, 0},
		{"zip over MAX_UPLOAD_BYTES", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Pieces: []rt.Piece{good}})
		}, Options{MaxExpanded: 100}, []string{"MAX_UPLOAD_BYTES"}, 0},
		{"deep zip", func(f string) error { return os.WriteFile(f, deep, 0o600) }, Options{}, []string{"a zip or gzip inside a zip is not opened"}, 0},
		{"archive named .csv in a zip", func(f string) error {
			return rt.ZipFile(f, rt.Entry{Name: rt.WeekName, Raw: nested})
		}, Options{}, []string{"is itself an archive"}, 0},
		{"many tiny entries", func(f string) error { return rt.ZipFile(f, many...) }, Options{}, []string{"holds 5000 entries", "at most 1000"}, 0},
		{"too many reports", func(f string) error { return rt.ZipFile(f, fiftyOne...) }, Options{}, []string{"holds 51 reports", "at most 50"}, 0},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := p(fmt.Sprintf("bomb%d", i))
			if err := tc.make(path); err != nil {
				t.Fatal(err)
			}
			started := time.Now()
			tc.opts.Marketplace = "US"
			_, err := drain(path, tc.opts)
			if err == nil {
				t.Fatal("the file was read without an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			var pe *ParseError
			if tc.lines > 0 && (!errors.As(err, &pe) || pe.Line != tc.lines) {
				t.Errorf("error %q does not name line %d", err, tc.lines)
			}
			if took := time.Since(started); took > 5*time.Second { // the bombs stop within megabytes
				t.Errorf("took %v", took)
			}
		})
	}
}

// The limits sit well above real rows: records up to MaxRecordBytes and cells up to
// MaxFieldBytes import, whatever the file's compression.
func TestLargeButRealRecordsPass(t *testing.T) {
	dir := t.TempDir()
	letters := make([]byte, MaxFieldBytes) // the largest cell, of text that compresses as text does
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range letters {
		letters[i] = "etaoin shrdlu"[rnd.IntN(13)]
	}
	title := string(letters)
	var rows strings.Builder
	rows.WriteString(rt.Meta + rt.Header)
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&rows, `"%d","big %d","%s","%s","%s","%s","%s","%s","%s%d","%s","10","1","%s%d","%s","5","1","%s%d","%s","1","0","4/11/2026"`+"\n",
			i, i, title, title, title, title, title, title, title[1:], i, title, title[1:], i, title, title[1:], i, title)
	}
	if n := len(rows.String()) / 3; n < 12*MaxFieldBytes {
		t.Fatalf("rows of %d bytes do not test the record limit", n)
	}
	plain := filepath.Join(dir, rt.WeekName)
	gz := plain + ".gz"
	os.WriteFile(plain, []byte(rows.String()), 0o600)
	if err := rt.GzipFile(gz, rt.Piece{Data: []byte(rows.String())}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{plain, gz} {
		if n, err := drain(f, Options{}); err != nil || n != 3 {
			t.Errorf("%s: %d rows, %v", filepath.Base(f), n, err)
		}
	}
	over := strings.Replace(rows.String(), `"big 2",`, `"big 2`+"x"+`",`, 1)
	over = strings.Replace(over, `"big 2x"`, `"`+strings.Repeat("y", MaxFieldBytes+1)+`"`, 1)
	os.WriteFile(plain, []byte(over), 0o600)
	var pe *ParseError
	if _, err := drain(plain, Options{}); !errors.As(err, &pe) || pe.Line != 4 || pe.ColumnName != "search term" {
		t.Errorf("a term one byte over the limit: %v", err)
	}
	// Lenient mode skips a row with a cell too long, and keeps only the start of its value.
	srcs, err := Open(plain, Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srcs[0].Close()
	n := 0
	for ; ; n++ {
		if _, err := srcs[0].Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	skipped, count := srcs[0].Skipped()
	if n != 2 || count != 1 || len(skipped[0].Value) > maxValueBytes+len("…") {
		t.Errorf("lenient: %d rows, %d skipped, value of %d bytes", n, count, len(skipped[0].Value))
	}
}

// The SP-API JSON reader is bounded by the same record limit.
func TestHostileJSON(t *testing.T) {
	dir := t.TempDir()
	spec := `{"reportSpecification":{"reportType":"GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT","dataStartTime":"2026-04-05","dataEndTime":"2026-04-11","marketplaceIds":["ATVPDKIKX0DER"]},"dataByDepartmentAndSearchTerm":[`
	rec := func(rank int, term string) string {
		return fmt.Sprintf(`{"departmentName":"Amazon.com","searchTerm":%q,"searchFrequencyRank":%d,"clickedAsin":"B0X","clickShareRank":1,"clickShare":0.1,"conversionShare":0.01}`, term, rank)
	}
	var others strings.Builder // 3 MiB of other departments' records, skipped record by record
	for i := 0; others.Len() < 3<<20; i++ {
		fmt.Fprintf(&others, `{"departmentName":"Beauty","searchTerm":"x%d","searchFrequencyRank":%d,"clickedAsin":"B0X%d","clickShareRank":1,"clickShare":0.1,"conversionShare":0.01},`, i*7919, i+1, i*104729)
	}
	cases := []struct {
		name   string
		pieces []rt.Piece
		rows   int
		want   string
	}{
		{"many other departments", []rt.Piece{{Data: []byte(spec + rec(1, "a") + "," + others.String() + rec(2, "b") + "]}")}}, 2, ""},
		// A term's row is complete when the next record is read: these fail on the first row.
		{"long string", []rt.Piece{{Data: []byte(spec + rec(1, "a") + `,{"searchTerm":"`)}, {Data: rt.Repeat("z", 1<<20), Times: 64}}, 0, "more than 1 MiB without the end of a record"},
		{"blank flood", []rt.Piece{{Data: []byte(spec + rec(1, "a") + ",")}, {Data: rt.Repeat(" ", 1<<20), Times: 64}}, 0, "more than 1 MiB without the end of a record"},
		{"long field", []rt.Piece{{Data: []byte(spec + rec(1, strings.Repeat("q", MaxFieldBytes+1)) + "]}")}}, 0, "searchTerm"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("r%d.json.gz", i))
			if err := rt.GzipFile(path, tc.pieces...); err != nil {
				t.Fatal(err)
			}
			n, err := drain(path, Options{})
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) || n != tc.rows {
				t.Errorf("%d rows, error %v; want %d rows and %q", n, err, tc.rows, tc.want)
			}
		})
	}
}

// zipDirectory reads the count from a zip64 end record, as archive/zip does.
func TestZipDirectoryZip64(t *testing.T) {
	path := filepath.Join(t.TempDir(), "z.zip")
	entries := make([]rt.Entry, 70000) // over 65535: the writer switches to zip64
	for i := range entries {
		entries[i] = rt.Entry{Name: fmt.Sprint(i), Raw: []byte{}}
	}
	if err := rt.ZipFile(path, entries...); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	st, _ := f.Stat()
	if n, dir, ok := zipDirectory(f, st.Size()); !ok || n != 70000 || dir < 70000*46 {
		t.Errorf("zipDirectory: %d entries, %d bytes, %v", n, dir, ok)
	}
	if _, err := drain(path, Options{}); err == nil || !strings.Contains(err.Error(), "holds 70000 entries") {
		t.Errorf("open: %v", err)
	}
}
