package report

import (
	"bytes"
	"fmt"
	"io"
	"sync/atomic"
)

// The limits on what one file may make the importer read and hold. A hostile or broken upload (a
// line of a gigabyte, a zip or gzip bomb, a flood of blank space, thousands of tiny entries) is
// refused with a clear error after a bounded amount of work and memory; a real report never
// comes near them (its rows are under 4 KB, its cells under 2 KB, and it compresses 3-10 times).
const (
	// MaxRecordBytes caps one record: a CSV line with the line breaks of its quoted cells, or an
	// SP-API JSON record, with any blank space before it.
	MaxRecordBytes = 1 << 20
	// MaxFieldBytes caps one cell (a term, a title, a brand...).
	MaxFieldBytes = 64 << 10
	// MaxExpansion caps what a compressed file (a gzip, each zip entry, a whole zip) may expand to:
	// this many times its compressed size, or minExpansion when that is more.
	MaxExpansion = 100
	minExpansion = 1 << 20
	// MaxZipEntries caps the entries of a zip (folders and other files included), and
	// MaxZipReports the reports among them: a zip holds as many reports as one upload holds files.
	MaxZipEntries = 1000
	MaxZipReports = 50
	// readAhead is the buffer between a stream and its parser; a record is refused at the latest
	// when it passes MaxRecordBytes+readAhead bytes.
	readAhead = 64 << 10
	// maxValueBytes caps the value a ParseError carries, so a skipped row of a lenient import
	// never keeps a megabyte cell.
	maxValueBytes = 200
)

// window passes a stream on to its parser but never further than MaxRecordBytes (plus the
// parser's read-ahead) past the start of the record being parsed, so no record, and no run of
// blank space between records, can grow the parser's buffers without bound. It counts the line
// breaks it passes to name the line where a record grew too long.
type window struct {
	r     io.Reader
	read  int64        // bytes passed on
	lines int          // line breaks among them
	start func() int64 // the offset where the record being parsed began
	max   int64
	err   error
}

func newWindow(r io.Reader, start func() int64) *window {
	return &window{r: r, start: start, max: MaxRecordBytes + readAhead}
}

func (w *window) Read(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	room := w.start() + w.max - w.read
	if room <= 0 {
		w.err = &ParseError{Line: w.lines + 1, Expected: fmt.Sprintf("more than %s without the end of a record (near byte %d): "+
			"a line or cell far longer than any report's, a quoted cell that never closes, or a flood of blank space; "+
			"this is not a search-terms report, or it is damaged", sizeText(MaxRecordBytes), w.read)}
		return 0, w.err
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := w.r.Read(p)
	w.read += int64(n)
	w.lines += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}

// budget is what the entries of one zip may expand to together.
type budget struct {
	used atomic.Int64
	max  int64
	why  string
}

// expandCap stops a decompressor at max bytes (and at its archive's budget): the bombs of a
// few kilobytes that expand to gigabytes end here, whatever their headers claim.
type expandCap struct {
	r       io.Reader
	n, max  int64
	archive *budget // nil for a gzip file
	name    string
	packed  int64 // the compressed size, for the message
	err     error
}

func (c *expandCap) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if room := c.max - c.n + 1; int64(len(p)) > room { // one byte past the cap proves it was passed
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	switch {
	case c.n > c.max:
		c.err = expandError(c.name, c.max, c.packed)
	case c.archive != nil && c.archive.used.Add(int64(n)) > c.archive.max:
		c.err = fileError("the zip expands to more than %s (%s): refused as a decompression bomb", sizeText(c.archive.max), c.archive.why)
	}
	if c.err != nil {
		return 0, c.err
	}
	return n, err
}

func expandError(name string, max, packed int64) *ParseError {
	return fileError("%s expands to more than %s from %s compressed (at most %d times its compressed size): refused as a decompression bomb",
		name, sizeText(max), sizeText(packed), MaxExpansion)
}

// expandLimit is what packed compressed bytes may expand to.
func expandLimit(packed int64) int64 {
	if packed > (1<<62)/MaxExpansion {
		return 1 << 62
	}
	return max(packed*MaxExpansion, minExpansion)
}

// sizeText writes a byte count for people: 1 MiB, 64 KiB, 4.0 GiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// longField finds a cell of row longer than MaxFieldBytes and names its column. It runs on
// every row, so the usual answer (none) takes a few comparisons and no allocation.
func longField(row *Row, layout Layout) *ParseError {
	long := len(row.Term) > MaxFieldBytes || len(row.Department) > MaxFieldBytes
	for i, p := range row.Products {
		long = long || len(p.ASIN) > MaxFieldBytes || len(p.Title) > MaxFieldBytes ||
			len(row.Brands[i]) > MaxFieldBytes || len(row.Categories[i]) > MaxFieldBytes
	}
	if !long {
		return nil
	}
	names := columnNames(layout)
	cells := []struct{ v, column string }{{row.Term, names.term}, {row.Department, names.dept}}
	for i, p := range row.Products {
		n := i + 1
		cells = append(cells, struct{ v, column string }{p.ASIN, names.asin(n)}, struct{ v, column string }{p.Title, names.title(n)},
			struct{ v, column string }{row.Brands[i], names.brand(n)}, struct{ v, column string }{row.Categories[i], names.category(n)})
	}
	for _, c := range cells {
		if len(c.v) > MaxFieldBytes {
			return &ParseError{Line: row.Line, ColumnName: c.column, Value: c.v,
				Expected: fmt.Sprintf("at most %s in a cell; this %s has %d bytes", sizeText(MaxFieldBytes), c.column, len(c.v))}
		}
	}
	return nil
}

type layoutNames struct {
	term, dept                   string
	asin, title, brand, category func(n int) string
}

// columnNames names a layout's columns as its header (CSV) or its records (JSON) do.
func columnNames(layout Layout) layoutNames {
	if layout == LayoutAmazonSPAPI {
		same := func(s string) func(int) string { return func(int) string { return s } }
		return layoutNames{term: "searchTerm", dept: "departmentName", asin: same("clickedAsin"), title: same("clickedItemName"),
			brand: same("brand"), category: same("category")}
	}
	for i := range csvLayouts {
		l := &csvLayouts[i]
		if l.layout != layout {
			continue
		}
		ln := layoutNames{term: l.term, dept: l.dept,
			asin:  func(n int) string { a, _, _, _ := l.product(n); return a },
			title: func(n int) string { _, t, _, _ := l.product(n); return t },
			brand: func(n int) string {
				if l.brand == nil {
					return "brand"
				}
				return l.brand(n)
			},
			category: func(n int) string {
				if l.category == nil {
					return "category"
				}
				return l.category(n)
			}}
		return ln
	}
	return layoutNames{term: "term", dept: "department", asin: func(int) string { return "asin" }, title: func(int) string { return "title" },
		brand: func(int) string { return "brand" }, category: func(int) string { return "category" }}
}

// shortValue keeps the start of a long value, for errors that are kept or sent.
func shortValue(v string) string {
	if len(v) <= maxValueBytes {
		return v
	}
	cut := maxValueBytes
	for cut > 0 && v[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return v[:cut] + "…"
}
