package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// columns maps lower-cased header names to their index.
type columns map[string]int

func (c columns) get(rec []string, name string) string {
	if i, ok := c[name]; ok && i < len(rec) {
		return strings.TrimSpace(rec[i])
	}
	return ""
}

// shareUnit says how a file writes shares.
type shareUnit int

const (
	percentPoints shareUnit = iota // "38.62" or "38.62%"
	fraction                       // "0.3862"
	perFile                        // fractions, unless any share of the file is above 1 (formats.md §7)
)

// csvLayout describes one accepted CSV layout by its header.
type csvLayout struct {
	layout   Layout
	header   []string // every column, as the layout writes it; all are required (formats.md §11)
	first    int      // how many of the header's first cells identify the layout
	unit     shareUnit
	rank     string
	term     string
	dept     string
	date     string
	product  func(n int) (asin, title, click, conv string)
	brand    func(n int) string
	category func(n int) string
}

var csvLayouts = []*csvLayout{
	{
		layout: LayoutAmazonTST, first: 3,
		header: strings.Split("Search Frequency Rank,Search Term,Top Clicked Brand #1,Top Clicked Brands #2,Top Clicked Brands #3,"+
			"Top Clicked Category #1,Top Clicked Category #2,Top Clicked Category #3,"+
			"Top Clicked Product #1: ASIN,Top Clicked Product #1: Product Title,Top Clicked Product #1: Click Share,Top Clicked Product #1: Conversion Share,"+
			"Top Clicked Product #2: ASIN,Top Clicked Product #2: Product Title,Top Clicked Product #2: Click Share,Top Clicked Product #2: Conversion Share,"+
			"Top Clicked Product #3: ASIN,Top Clicked Product #3: Product Title,Top Clicked Product #3: Click Share,Top Clicked Product #3: Conversion Share,"+
			"Reporting Date", ","),
		unit: percentPoints, rank: "search frequency rank", term: "search term", date: "reporting date",
		product: func(n int) (string, string, string, string) {
			p := fmt.Sprintf("top clicked product #%d: ", n)
			return p + "asin", p + "product title", p + "click share", p + "conversion share"
		},
		brand: func(n int) string {
			if n == 1 {
				return "top clicked brand #1"
			}
			return fmt.Sprintf("top clicked brands #%d", n) // Amazon's own spelling for #2 and #3
		},
		category: func(n int) string { return fmt.Sprintf("top clicked category #%d", n) },
	},
	{
		layout: LayoutAmazonDept, first: 3,
		header: strings.Split("Department,Search Term,Search Frequency Rank,#1 Clicked ASIN,#1 Product Title,#1 Click Share,#1 Conversion Share,"+
			"#2 Clicked ASIN,#2 Product Title,#2 Click Share,#2 Conversion Share,#3 Clicked ASIN,#3 Product Title,#3 Click Share,#3 Conversion Share", ","),
		unit: percentPoints, rank: "search frequency rank", term: "search term", dept: "department",
		product: func(n int) (string, string, string, string) {
			p := fmt.Sprintf("#%d ", n)
			return p + "clicked asin", p + "product title", p + "click share", p + "conversion share"
		},
	},
	{
		layout: LayoutWalmartTST, first: 3,
		header: strings.Split("reportDate,searchKeyword,searchKeywordFrequencyRank,item1Id,item1Name,item1BrandName,item1ClickShare,item1ConversionShare,"+
			"item2Id,item2Name,item2BrandName,item2ClickShare,item2ConversionShare,item3Id,item3Name,item3BrandName,item3ClickShare,item3ConversionShare", ","),
		unit: perFile, rank: "searchkeywordfrequencyrank", term: "searchkeyword", date: "reportdate",
		product: func(n int) (string, string, string, string) {
			p := fmt.Sprintf("item%d", n)
			return p + "id", p + "name", p + "clickshare", p + "conversionshare"
		},
		brand: func(n int) string { return fmt.Sprintf("item%dbrandname", n) },
	},
}

// slotCols are a product slot's column indices (-1 when absent).
type slotCols struct{ asin, title, click, conv, brand, category int }

// csvSource reads one CSV report.
type csvSource struct {
	r       *csv.Reader
	layout  *csvLayout
	cols    columns
	unit    shareUnit
	rankCol int
	termCol int
	deptCol int
	slots   [3]slotCols
	names   []string // header as written, for messages
	pending []string // the first data record, read early to find its Reporting Date
	width   int
}

func (s *Source) initCSV(br *bufio.Reader, name string, opts Options) error {
	r := csv.NewReader(br)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	rec, err := r.Read()
	if err != nil {
		return csvError(r, err, rec, nil)
	}
	var md metadata
	before := 1 // records before the first data record
	if !looksLikeHeader(rec) && strings.Contains(strings.Join(rec, ","), "=[") {
		md = parseMetadata(rec)
		if _, ok := md["brand"]; ok {
			return sqpError()
		}
		if _, ok := md["asin or product"]; ok {
			return sqpError()
		}
		if rec, err = r.Read(); err != nil {
			if errors.Is(err, io.EOF) {
				return &ParseError{Line: 2, Expected: "missing header: the file ends after its metadata line"}
			}
			return csvError(r, err, rec, nil)
		}
		before++
	}
	line, _ := r.FieldPos(0)
	cs := &csvSource{r: r, names: append([]string(nil), rec...)}
	if err := cs.matchHeader(rec, line); err != nil {
		return err
	}
	if extra := cs.extraColumns(); len(extra) > 0 {
		s.warnings = append(s.warnings, fmt.Sprintf("line %d: columns not in the %s layout were ignored: %s", line, cs.layout.layout, strings.Join(extra, ", ")))
	}
	first, err := r.Read()
	switch {
	case errors.Is(err, io.EOF):
	case err != nil:
		return csvError(r, err, first, cs.names)
	default:
		cs.pending = append([]string(nil), first...)
	}
	if cs.unit == perFile {
		if cs.unit, err = cs.decideUnit(opts.reopen, before); err != nil {
			return err
		}
	}
	s.meta = Meta{Layout: cs.layout.layout, Name: name, Rolling: cs.layout.layout == LayoutWalmartTST}
	if err := s.resolveCSV(cs, md, name, opts); err != nil {
		return err
	}
	s.next = cs.next
	return nil
}

func looksLikeHeader(rec []string) bool {
	if len(rec) == 0 {
		return false
	}
	h := strings.ToLower(strings.TrimSpace(rec[0]))
	return h == "search frequency rank" || h == "department" || h == "reportdate" || h == "search query" || h == "reporting date"
}

func sqpError() error {
	return fileError("this is a Search Query Performance report, not a search-terms report: download the Top Search Terms report from Brand Analytics")
}

// matchHeader identifies the layout from the header and checks that it has every column of
// the layout: a missing share column would otherwise import as blank shares (formats.md §11).
func (cs *csvSource) matchHeader(rec []string, line int) error {
	lower := make([]string, len(rec))
	for i, h := range rec {
		lower[i] = strings.ToLower(strings.TrimSpace(h))
	}
	if len(lower) > 0 && (lower[0] == "search query" || (len(lower) > 1 && lower[0] == "reporting date" && lower[1] == "search query")) {
		return sqpError()
	}
	for _, l := range csvLayouts {
		if len(lower) < l.first || !strings.EqualFold(strings.Join(lower[:l.first], ","), strings.Join(l.header[:l.first], ",")) {
			continue
		}
		cs.layout, cs.cols, cs.width, cs.unit = l, columns{}, len(rec), l.unit
		for j, h := range lower {
			if _, dup := cs.cols[h]; !dup {
				cs.cols[h] = j
			}
		}
		for _, col := range l.header {
			if _, ok := cs.cols[strings.ToLower(col)]; !ok {
				return &ParseError{Line: line, Column: col, Expected: fmt.Sprintf("the header lacks the column %s, which every %s report has", col, l.layout)}
			}
		}
		cs.indexColumns()
		return nil
	}
	got := strings.Join(rec[:min(3, len(rec))], ",")
	return &ParseError{Line: line, Value: got, Expected: "not a search-terms report: expected a header starting " +
		"Search Frequency Rank,Search Term,Top Clicked Brand #1 (Top Search Terms), Department,Search Term,Search Frequency Rank (older layout), " +
		"or reportDate,searchKeyword,searchKeywordFrequencyRank (Walmart)"}
}

// extraColumns lists the header's columns that are not the layout's (they are ignored).
func (cs *csvSource) extraColumns() []string {
	known := map[string]bool{}
	for _, col := range cs.layout.header {
		known[strings.ToLower(col)] = true
	}
	var extra []string
	for _, h := range cs.names {
		if !known[strings.ToLower(strings.TrimSpace(h))] {
			extra = append(extra, h)
		}
	}
	return extra
}

// decideUnit reads the file again from its start, once, to decide its share unit: percent
// points when any share is above 1, fractions otherwise (formats.md §7). Deciding per value
// read "0.50" as half in a file of percent points. Only layouts whose unit is not fixed
// (Walmart's, at most 300k rows) pay for the second reading; it stops at the first share above 1.
func (cs *csvSource) decideUnit(reopen func() (io.ReadCloser, error), before int) (shareUnit, error) {
	if reopen == nil {
		return 0, fileError("the share unit cannot be decided: the file cannot be read twice")
	}
	rc, err := reopen()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	// The second reading is bounded like the first: no record past MaxRecordBytes.
	var r *csv.Reader
	bom := int64(0)
	win := newWindow(rc, func() int64 {
		if r == nil {
			return 0
		}
		return bom + r.InputOffset()
	})
	br := bufio.NewReaderSize(win, readAhead)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
		bom = 3
	}
	r = csv.NewReader(br)
	r.FieldsPerRecord, r.ReuseRecord = -1, true
	for n := 0; ; n++ {
		rec, err := r.Read()
		if err != nil { // the end, or an error the rows' reading reports
			return fraction, nil
		}
		if n < before {
			continue
		}
		for _, sc := range cs.slots {
			for _, i := range []int{sc.click, sc.conv} {
				v := strings.TrimSuffix(cell(rec, i), "%")
				if f, ok := parseDecimal(v); ok && f > 1 {
					return percentPoints, nil
				}
				if f, err := strconv.ParseFloat(v, 64); err == nil && f > 1 && f <= 100 {
					return percentPoints, nil
				}
			}
		}
	}
}

// indexColumns looks every column up once, so rows are converted without map lookups.
func (cs *csvSource) indexColumns() {
	idx := func(name string) int {
		if i, ok := cs.cols[name]; ok && name != "" {
			return i
		}
		return -1
	}
	l := cs.layout
	cs.rankCol, cs.termCol, cs.deptCol = idx(l.rank), idx(l.term), idx(l.dept)
	for n := 1; n <= 3; n++ {
		asin, title, click, conv := l.product(n)
		sc := slotCols{asin: idx(asin), title: idx(title), click: idx(click), conv: idx(conv), brand: -1, category: -1}
		if l.brand != nil {
			sc.brand = idx(l.brand(n))
		}
		if l.category != nil {
			sc.category = idx(l.category(n))
		}
		cs.slots[n-1] = sc
	}
}

func cell(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

// resolveCSV finds the period and marketplace from the metadata line, the Reporting Date
// column, the file name and the caller, in that order.
func (s *Source) resolveCSV(cs *csvSource, md metadata, name string, opts Options) error {
	var sources []found
	if p, ok := md.period(); ok {
		sources = append(sources, found{source: "the file's metadata line", period: &p})
	}
	if d := md["department"]; d != "" {
		sources = append(sources, found{source: "the file's metadata line", marketplace: departmentMarketplace(d)})
	}
	fileMarket, filePeriod, nameOK := fromFileName(name)
	kind := md.kind()
	if kind == "" && nameOK {
		kind = filePeriod.Kind
	}
	if kind == "" && opts.Period != nil {
		kind = opts.Period.Kind
	}
	if cs.layout.layout == LayoutWalmartTST {
		kind = Week
		sources = append(sources, found{source: "the layout", marketplace: Walmart})
	}
	if cs.pending != nil && cs.layout.date != "" && kind != "" {
		if d, ok := parseDate(cs.cols.get(cs.pending, cs.layout.date)); ok {
			sources = append(sources, found{source: "the Reporting Date column", period: periodPtr(periodEnding(kind, d))})
		}
	}
	if cs.pending != nil && cs.layout.dept != "" {
		if m := departmentMarketplace(cs.cols.get(cs.pending, cs.layout.dept)); m != "" {
			sources = append(sources, found{source: "the Department column", marketplace: m})
		}
	}
	if nameOK {
		sources = append(sources, found{source: "the file name", period: &filePeriod, marketplace: fileMarket})
	} else if fileMarket != "" {
		sources = append(sources, found{source: "the file name", marketplace: fileMarket})
	}
	return resolve(&s.meta, opts, sources...)
}

// csvError turns an error of the CSV reader into a ParseError naming the record's line and
// the column it broke in (rec holds the cells read before it, names the header). Every such
// error is a broken file, refused in lenient mode too.
func csvError(r *csv.Reader, err error, rec, names []string) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	out := &ParseError{Line: pe.StartLine, Broken: true, Expected: "malformed CSV: " + pe.Err.Error()}
	if len(rec) < len(names) {
		out.Column = names[len(rec)]
	}
	if errors.Is(pe.Err, csv.ErrQuote) {
		// A quoted field that runs to the end of the file is a file cut short; otherwise a
		// quote inside the field was not doubled.
		if _, next := r.Read(); errors.Is(next, io.EOF) {
			out.Expected = "the record ends inside a quoted field: the file was cut short"
		} else {
			out.Expected = "a quote inside a quoted field is not doubled (\"\")"
		}
	}
	return out
}

// next reads and converts one record.
func (cs *csvSource) next() (Row, error) {
	var rec []string
	if cs.pending != nil {
		rec, cs.pending = cs.pending, nil
	} else {
		var err error
		if rec, err = cs.r.Read(); err != nil {
			return Row{}, csvError(cs.r, err, rec, cs.names)
		}
	}
	line, _ := cs.r.FieldPos(0)
	if len(rec) < cs.width {
		return Row{}, &ParseError{Line: line, Column: cs.names[len(rec)], Broken: true,
			Expected: fmt.Sprintf("truncated record: %d cells where the header has %d", len(rec), cs.width)}
	}
	if len(rec) > cs.width {
		return Row{}, &ParseError{Line: line, Broken: true, Expected: fmt.Sprintf("%d cells where the header has %d", len(rec), cs.width)}
	}
	return cs.convert(rec, line)
}

func (cs *csvSource) convert(rec []string, line int) (Row, error) {
	row := Row{Line: line, Term: cell(rec, cs.termCol)}
	if row.Term == "" {
		return Row{}, cs.cellError(rec, line, cs.termCol, "a search term (it is blank)")
	}
	rank, err := strconv.ParseInt(cell(rec, cs.rankCol), 10, 32)
	if err != nil || rank < 1 {
		return Row{}, cs.cellError(rec, line, cs.rankCol, "a positive whole number (the search frequency rank)")
	}
	row.Rank = int32(rank)
	row.Department = cell(rec, cs.deptCol)
	unit := cs.unit
	for n, sc := range cs.slots {
		p := Product{ASIN: cell(rec, sc.asin), Title: cell(rec, sc.title)}
		if p.ClickShare, err = parseShare(cell(rec, sc.click), unit); err != nil {
			return Row{}, cs.cellError(rec, line, sc.click, err.Error())
		}
		if p.ConversionShare, err = parseShare(cell(rec, sc.conv), unit); err != nil {
			return Row{}, cs.cellError(rec, line, sc.conv, err.Error())
		}
		row.Products[n] = p
		row.Brands[n] = cell(rec, sc.brand)
		row.Categories[n] = cell(rec, sc.category)
	}
	return row, nil
}

func (cs *csvSource) cellError(rec []string, line, i int, expected string) *ParseError {
	v := ""
	if i < len(rec) {
		v = rec[i]
	}
	return &ParseError{Line: line, Column: cs.names[i], Value: v, Expected: "expected " + expected}
}

// parseShare reads a share as a fraction 0..1; blank is NoShare.
func parseShare(s string, unit shareUnit) (float32, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoShare, nil
	}
	pct := strings.HasSuffix(s, "%")
	number := strings.TrimSuffix(s, "%")
	v, ok := parseDecimal(number)
	var err error
	if !ok {
		v, err = strconv.ParseFloat(number, 64)
	}
	if err != nil || !(v >= 0 && v <= 100) { // NaN passes v < 0 || v > 100
		return 0, errors.New("a share between 0 and 100 (percent points) or 0 and 1 (fraction)")
	}
	if !pct && unit == fraction && v > 1 {
		return 0, errors.New("a share between 0 and 1, as every other share of this file is a fraction")
	}
	if pct || unit == percentPoints {
		v /= 100
	}
	return float32(v), nil
}

// parseDecimal reads the plain decimals shares are written in ("38.62", "0.3862", "5") as
// ParseFloat would, bit for bit: up to 15 digits make an exact float64 and one division by an
// exact power of ten rounds once, which is ParseFloat's own exact path. Anything else (a sign,
// an exponent, more digits) is left to ParseFloat (ok false). Shares are six of a row's cells,
// and ParseFloat's general parse was a sixth of the row's conversion.
func parseDecimal(s string) (v float64, ok bool) {
	var mantissa uint64
	digits, decimals, dot := 0, 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			mantissa = mantissa*10 + uint64(c-'0')
			digits++
			if dot {
				decimals++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	return float64(mantissa) / pow10[decimals], true
}

var pow10 = [16]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}
