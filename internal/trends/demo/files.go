package demo

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// tstHeader is the amazon-tst header exactly as formats.md gives it.
var tstHeader = []string{"Search Frequency Rank", "Search Term", "Top Clicked Brand #1", "Top Clicked Brands #2", "Top Clicked Brands #3",
	"Top Clicked Category #1", "Top Clicked Category #2", "Top Clicked Category #3",
	"Top Clicked Product #1: ASIN", "Top Clicked Product #1: Product Title", "Top Clicked Product #1: Click Share", "Top Clicked Product #1: Conversion Share",
	"Top Clicked Product #2: ASIN", "Top Clicked Product #2: Product Title", "Top Clicked Product #2: Click Share", "Top Clicked Product #2: Conversion Share",
	"Top Clicked Product #3: ASIN", "Top Clicked Product #3: Product Title", "Top Clicked Product #3: Click Share", "Top Clicked Product #3: Conversion Share",
	"Reporting Date"}

// WriteTSTCSV writes a week as Amazon's weekly Top Search Terms CSV (metadata line, header,
// shares in percent points), streaming: the benchmark's 3M-row file never sits in memory.
func WriteTSTCSV(out io.Writer, src warehouse.RowSource) error {
	p := src.Meta().Period
	bw := bufio.NewWriterSize(out, 1<<20)
	w := csv.NewWriter(bw)
	_, week := p.Start.AddDate(0, 0, 1).ISOWeek() // ISO weeks start on Monday; Amazon's on Sunday
	meta := make([]string, len(tstHeader)-1)
	meta[0] = `Reporting Range=["Weekly"]`
	meta[1] = fmt.Sprintf(`Select week=["Week %d | %s - %s %d"]`, week, p.Start.Format("2006-01-02"), p.End.Format("2006-01-02"), p.End.Year())
	w.Write(meta)
	w.Write(tstHeader)
	date := p.End.Format("1/2/2006")
	err := eachRow(src, func(r report.Row) error {
		rec := []string{strconv.Itoa(int(r.Rank)), r.Term, r.Brands[0], r.Brands[1], r.Brands[2], r.Categories[0], r.Categories[1], r.Categories[2]}
		for _, pr := range r.Products {
			rec = append(rec, pr.ASIN, pr.Title, percent(pr.ClickShare), percent(pr.ConversionShare))
		}
		return w.Write(append(rec, date))
	})
	if err != nil {
		return err
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

func percent(f float32) string {
	if f < 0 {
		return ""
	}
	return strconv.FormatFloat(float64(f)*100, 'f', 2, 32)
}

// spapiRecord is one (term, clicked product) record of the SP-API document.
type spapiRecord struct {
	DepartmentName      string   `json:"departmentName"`
	SearchTerm          string   `json:"searchTerm"`
	SearchFrequencyRank int32    `json:"searchFrequencyRank"`
	ClickedAsin         string   `json:"clickedAsin"`
	ClickedItemName     string   `json:"clickedItemName"`
	ClickShareRank      int      `json:"clickShareRank"`
	ClickShare          *float32 `json:"clickShare"`
	ConversionShare     *float32 `json:"conversionShare"`
}

// WriteSPAPI writes a week as the SP-API GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT document: one
// record per term and clicked product, shares as fractions, streaming.
func WriteSPAPI(out io.Writer, src warehouse.RowSource) error {
	p := src.Meta().Period
	bw := bufio.NewWriterSize(out, 1<<20)
	fmt.Fprintf(bw, `{"reportSpecification":{"reportType":"GET_BRAND_ANALYTICS_SEARCH_TERMS_REPORT","reportOptions":{"reportPeriod":"WEEK"},`+
		`"dataStartTime":"%s","dataEndTime":"%s","marketplaceIds":["ATVPDKIKX0DER"]},"dataByDepartmentAndSearchTerm":[`,
		p.Start.Format("2006-01-02"), p.End.Format("2006-01-02"))
	enc := json.NewEncoder(bw)
	first := true
	err := eachRow(src, func(r report.Row) error {
		for k, pr := range r.Products {
			if pr.ASIN == "" {
				continue
			}
			if !first {
				bw.WriteByte(',')
			}
			first = false
			rec := spapiRecord{"Amazon.com", r.Term, r.Rank, pr.ASIN, pr.Title, k + 1, fraction(pr.ClickShare), fraction(pr.ConversionShare)}
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// eachRow calls fn for every row of src, in order.
func eachRow(src warehouse.RowSource, fn func(report.Row) error) error {
	for {
		r, err := src.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
}

// fraction is a share as SP-API writes it; blank (report.NoShare) is null.
func fraction(f float32) *float32 {
	if f == report.NoShare {
		return nil
	}
	return &f
}
