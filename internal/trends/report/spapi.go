package report

import (
	"bufio"
	"encoding/json"
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

// read decodes the next record, or returns nil at the end of the array.
func (js *spapiSource) read() (*spapiRecord, error) {
	if js.done || !js.dec.More() {
		js.done = true
		return nil, nil
	}
	var rec spapiRecord
	if err := js.dec.Decode(&rec); err != nil {
		return nil, &ParseError{Line: js.index + 1, Expected: fmt.Sprintf("record %d is malformed: %v", js.index+1, err)}
	}
	js.index++
	return &rec, nil
}

// next groups a term's adjacent records (its clicked products, ranks 1–3) into one Row.
// Only the marketplace-wide department is imported: other departments are separate rankings.
func (js *spapiSource) next() (Row, error) {
	for {
		rec := js.ahead
		js.ahead = nil
		if rec == nil {
			var err error
			if rec, err = js.read(); err != nil {
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
		row, err := js.startRow(rec)
		if err != nil {
			return Row{}, err
		}
		for {
			more, err := js.read()
			if err != nil {
				return Row{}, err
			}
			if more == nil || more.SearchTerm != rec.SearchTerm || more.DepartmentName != rec.DepartmentName {
				js.ahead = more
				return row, nil
			}
			if err := js.addProduct(&row, more); err != nil {
				return Row{}, err
			}
		}
	}
}

func (js *spapiSource) startRow(rec *spapiRecord) (Row, error) {
	row := Row{Line: js.index, Term: strings.TrimSpace(rec.SearchTerm), Department: rec.DepartmentName}
	if row.Term == "" {
		return Row{}, &ParseError{Line: js.index, ColumnName: "searchTerm", Expected: "expected a search term (it is blank)"}
	}
	if rec.SearchFrequencyRank < 1 || rec.SearchFrequencyRank > 1<<31-1 {
		return Row{}, &ParseError{Line: js.index, ColumnName: "searchFrequencyRank", Value: fmt.Sprint(rec.SearchFrequencyRank), Expected: "expected a positive whole number"}
	}
	row.Rank = int32(rec.SearchFrequencyRank)
	for i := range row.Products {
		row.Products[i] = Product{ClickShare: NoShare, ConversionShare: NoShare}
	}
	return row, js.addProduct(&row, rec)
}

func (js *spapiSource) addProduct(row *Row, rec *spapiRecord) error {
	if int64(row.Rank) != rec.SearchFrequencyRank {
		return &ParseError{Line: js.index, ColumnName: "searchFrequencyRank", Value: fmt.Sprint(rec.SearchFrequencyRank), Expected: fmt.Sprintf("expected the term's rank %d in each of its records", row.Rank)}
	}
	if rec.ClickShareRank < 1 || rec.ClickShareRank > 3 {
		return &ParseError{Line: js.index, ColumnName: "clickShareRank", Value: fmt.Sprint(rec.ClickShareRank), Expected: "expected 1, 2 or 3"}
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
			return &ParseError{Line: js.index, ColumnName: f.col, Value: fmt.Sprint(*f.v), Expected: "expected a fraction between 0 and 1"}
		}
		*f.dst = float32(*f.v)
	}
	row.Products[rec.ClickShareRank-1] = p
	return nil
}
