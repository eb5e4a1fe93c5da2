package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The SP-API report GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT: one JSON object holding the report
// specification and an array of records, one per (department, term, clicked product). It is read
// with a streaming decoder, one record at a time: the raw weekly document is ~3 GB.

const spapiReportType = "GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT"

type spapiSpec struct {
	ReportType     string                        `json:"reportType"`
	ReportOptions  struct{ ReportPeriod string } `json:"reportOptions"`
	DataStartTime  string                        `json:"dataStartTime"`
	DataEndTime    string                        `json:"dataEndTime"`
	MarketplaceIDs []string                      `json:"marketplaceIds"`
}

type spapiRecord struct {
	DepartmentName      string   `json:"departmentName"`
	SearchTerm          string   `json:"searchTerm"`
	SearchFrequencyRank int64    `json:"searchFrequencyRank"`
	ClickedASIN         string   `json:"clickedAsin"`
	ClickedItemName     *string  `json:"clickedItemName"`
	ClickShareRank      int      `json:"clickShareRank"`
	ClickShare          *float64 `json:"clickShare"`
	ConversionShare     *float64 `json:"conversionShare"`
}

type spapiSource struct {
	dec     *json.Decoder
	index   int // records read, for messages ("record 17")
	ahead   *spapiRecord
	aheadAt int   // ahead's record number
	pending error // an error about the record after the row last returned
	done    bool
	skipped int // records of other departments
}

func (s *Source) initJSON(br *bufio.Reader, name string, opts Options) error {
	dec := json.NewDecoder(br)
	s.followDecoder(dec.InputOffset)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fileError("not a search-terms report: a JSON file must be the SP-API report object")
	}
	var spec *spapiSpec
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return fileError("malformed JSON: %v", err)
		}
		switch key {
		case "reportSpecification":
			spec = &spapiSpec{}
			if err := dec.Decode(spec); err != nil {
				return fileError("malformed reportSpecification: %v", err)
			}
		case "dataByAsin":
			return sqpError()
		case "dataByDepartmentAndSearchTerm":
			if spec == nil {
				return fileError("the reportSpecification must come before dataByDepartmentAndSearchTerm")
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				return fileError("dataByDepartmentAndSearchTerm must be an array")
			}
			if err := s.resolveSPAPI(spec, name, opts); err != nil {
				return err
			}
			js := &spapiSource{dec: dec}
			s.next = js.next
			return nil
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fileError("malformed JSON: %v", err)
			}
		}
	}
	return fileError("not a search-terms report: no dataByDepartmentAndSearchTerm array")
}

func (s *Source) resolveSPAPI(spec *spapiSpec, name string, opts Options) error {
	if spec.ReportType != spapiReportType {
		if strings.Contains(spec.ReportType, "SEARCH_QUERY_PERFORMANCE") {
			return sqpError()
		}
		return fileError("reportType %q is not %s", spec.ReportType, spapiReportType)
	}
	s.meta = Meta{Layout: LayoutAmazonSPAPI, Name: name}
	var sources []found
	start, ok1 := parseDate(spec.DataStartTime)
	end, ok2 := parseDate(spec.DataEndTime)
	if ok1 && ok2 {
		p, err := classify(start, end)
		if err != nil {
			return fileError("reportSpecification: %v", err)
		}
		sources = append(sources, found{source: "the reportSpecification", period: &p})
	}
	if len(spec.MarketplaceIDs) > 0 {
		m := NormalizeMarketplace(spec.MarketplaceIDs[0])
		if m == "" {
			return fileError("unknown marketplace id %q", spec.MarketplaceIDs[0])
		}
		sources = append(sources, found{source: "the reportSpecification", marketplace: m})
	}
	if fm, fp, ok := fromFileName(name); ok {
		sources = append(sources, found{source: "the file name", period: &fp, marketplace: fm})
	}
	return resolve(&s.meta, opts, sources...)
}

// read decodes the next record and returns it with its number, or nil at the end of the array.
// A value of the wrong type is a bad value (the decoder has read past it); a document that is
// cut short or not JSON is broken, and nothing more is read from it.
func (js *spapiSource) read() (*spapiRecord, int, error) {
	if js.done {
		return nil, 0, nil
	}
	if !js.dec.More() {
		js.done = true
		return nil, 0, js.end()
	}
	js.index++
	var rec spapiRecord
	if err := js.dec.Decode(&rec); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, js.index, &ParseError{Record: js.index, Column: typeErr.Field, Value: typeErr.Value,
				Expected: "expected a " + typeErr.Type.String()}
		}
		js.done = true
		return nil, js.index, js.broken(js.index, err)
	}
	return &rec, js.index, nil
}

// end reads what follows the records: the array's end, any other keys, and the document's end.
func (js *spapiSource) end() error {
	if _, err := js.dec.Token(); err != nil { // ']'
		return js.broken(0, err)
	}
	for js.dec.More() {
		if _, err := js.dec.Token(); err != nil {
			return js.broken(0, err)
		}
		var skip json.RawMessage
		if err := js.dec.Decode(&skip); err != nil {
			return js.broken(0, err)
		}
	}
	if _, err := js.dec.Token(); err != nil { // '}'
		return js.broken(0, err)
	}
	return nil
}

// broken is the error for a document that cannot be read on at record n (0: after the records).
func (js *spapiSource) broken(n int, err error) *ParseError {
	pe := &ParseError{Record: n, Broken: true, Expected: "malformed JSON: " + err.Error()}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		pe.Expected = "the document ends before its records and its closing brackets: the file was truncated"
		if n > 0 {
			pe.Expected = "the record is cut short: the file was truncated"
		}
	}
	return pe
}

// next groups a run of a term's adjacent records (its clicked products, ranks 1–3) into one
// Row. Records need not be adjacent (formats.md §6): a term whose records are apart comes as
// several rows, each holding the slots of its run, and the warehouse groups them by
// (department, term), where a slot given twice or a rank that differs is found. A run holds
// consecutive slots in order (1, 2, 3 as Amazon writes them) with one rank, so nothing is
// overwritten here and the record of each slot is known: the row's Line (its first record)
// plus the slot's distance from its first slot. Only the marketplace-wide department is
// imported: other departments are separate rankings.
func (js *spapiSource) next() (Row, error) {
	if err := js.pending; err != nil {
		js.pending = nil
		return Row{}, err
	}
	for {
		rec, n := js.ahead, js.aheadAt
		js.ahead = nil
		if rec == nil {
			var err error
			if rec, n, err = js.read(); err != nil {
				return Row{}, err
			}
			if rec == nil {
				return Row{}, io.EOF
			}
		}
		if rec.DepartmentName != "" && departmentMarketplace(rec.DepartmentName) == "" {
			js.skipped++
			continue
		}
		row, err := js.startRow(rec, n)
		if err != nil {
			return Row{}, err
		}
		for slot := rec.ClickShareRank; ; slot++ {
			more, m, err := js.read()
			if err != nil {
				js.pending = err // the row so far is good; the error comes next
				return row, nil
			}
			if more == nil || more.SearchTerm != rec.SearchTerm || more.DepartmentName != rec.DepartmentName ||
				more.SearchFrequencyRank != rec.SearchFrequencyRank || more.ClickShareRank != slot+1 {
				js.ahead, js.aheadAt = more, m
				return row, nil
			}
			if err := addProduct(&row, more, m); err != nil {
				js.pending = err
				return row, nil
			}
		}
	}
}

func (js *spapiSource) startRow(rec *spapiRecord, n int) (Row, error) {
	row := Row{Line: n, Term: strings.TrimSpace(rec.SearchTerm), Department: rec.DepartmentName}
	if row.Term == "" {
		return Row{}, &ParseError{Record: n, Column: "searchTerm", Expected: "expected a search term (it is blank)"}
	}
	if rec.SearchFrequencyRank < 1 || rec.SearchFrequencyRank > 1<<31-1 {
		return Row{}, &ParseError{Record: n, Column: "searchFrequencyRank", Value: fmt.Sprint(rec.SearchFrequencyRank), Expected: "expected a positive whole number"}
	}
	row.Rank = int32(rec.SearchFrequencyRank)
	for i := range row.Products {
		row.Products[i] = Product{ClickShare: NoShare, ConversionShare: NoShare}
	}
	return row, addProduct(&row, rec, n)
}

// addProduct puts record n's product in its slot of row.
func addProduct(row *Row, rec *spapiRecord, n int) error {
	if rec.ClickShareRank < 1 || rec.ClickShareRank > 3 {
		return &ParseError{Record: n, Column: "clickShareRank", Value: fmt.Sprint(rec.ClickShareRank), Expected: "expected 1, 2 or 3"}
	}
	p := Product{ASIN: rec.ClickedASIN, ClickShare: NoShare, ConversionShare: NoShare}
	if rec.ClickedItemName != nil {
		p.Title = *rec.ClickedItemName
	}
	for _, f := range []struct {
		v   *float64
		dst *float32
		col string
	}{{rec.ClickShare, &p.ClickShare, "clickShare"}, {rec.ConversionShare, &p.ConversionShare, "conversionShare"}} {
		if f.v == nil {
			continue
		}
		if *f.v < 0 || *f.v > 1 {
			return &ParseError{Record: n, Column: f.col, Value: fmt.Sprint(*f.v), Expected: "expected a fraction between 0 and 1"}
		}
		*f.dst = float32(*f.v)
	}
	row.Products[rec.ClickShareRank-1] = p
	return nil
}
