package trends

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// exploreQuery validates the list parameters, each failure naming its parameter.
func exploreQuery(r *http.Request) (warehouse.ExploreQuery, error) {
	p := params{q: r.URL.Query()}
	sorts := make([]string, 0, len(warehouse.SortKeys))
	for k := range warehouse.SortKeys {
		sorts = append(sorts, k)
	}
	q := warehouse.ExploreQuery{
		Search:     p.str("q", 200),
		Prefix:     p.oneOf("match", "substring", []string{"substring", "prefix"}) == "prefix",
		List:       p.oneOf("list", "all", warehouse.Lists),
		Window:     atoiMust(p.oneOf("window", "4", []string{"1", "4", "13", "52"})),
		MinRank:    p.intIn("minRank", 0, 1, 1<<31-1),
		MaxRank:    p.intIn("maxRank", 0, 1, 1<<31-1),
		Category:   p.str("category", 200),
		Brand:      p.str("brand", 200),
		ASIN:       p.str("asin", 20),
		MinPeriods: p.intIn("minPeriods", 0, 1, 100000),
		Sort:       p.oneOf("sort", "rank", sorts),
		Desc:       p.oneOf("order", "asc", []string{"asc", "desc"}) == "desc",
		Limit:      p.intIn("limit", 100, 1, warehouse.MaxPage),
		Offset:     p.intIn("offset", 0, 0, 1<<31-1),
		At:         p.day("at"),
	}
	if p.err == nil && q.MinRank > 0 && q.MaxRank > 0 && q.MinRank > q.MaxRank {
		p.fail("minRank", "must not be above maxRank")
	}
	return q, p.err
}

func atoiMust(s string) int { n, _ := strconv.Atoi(s); return n }

func (s *Service) terms(w http.ResponseWriter, r *http.Request) {
	q, err := exploreQuery(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s.withDataset(w, r, func(d *warehouse.Dataset, dp *depth) (any, error) {
		if err := dp.checkQuery(q); err != nil {
			return nil, err
		}
		p, err := s.wh.Explore(r.Context(), d, q)
		dp.page(p, q.At)
		return p, err
	})
}

var csvHeader = []string{"term", "rank", "rank_1_ago", "rank_4_ago", "rank_13_ago", "rank_52_ago", "change_1", "change_4", "change_13", "change_52",
	"periods_present", "new", "breakout", "click_concentration", "conversion_concentration", "seasonality", "coming_up", "top_brand", "top_category", "top_asin"}

// termsCSV streams the whole selection as CSV: rows go out as DuckDB produces them.
func (s *Service) termsCSV(w http.ResponseWriter, r *http.Request) {
	q, err := exploreQuery(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	d := s.requestDataset(w, r)
	if d == nil {
		return
	}
	if err := s.allow(r, d.Workspace, plan.Exports); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	dp, err := s.depthOf(r.Context(), d)
	if err == nil {
		err = dp.checkQuery(q)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if !q.At.IsZero() { // refused before the CSV's headers go out
		if err := s.wh.CheckPeriod(r.Context(), d, q.At); err != nil {
			httpx.WriteError(w, r, periodError(err))
			return
		}
	}
	name := fmt.Sprintf("sellertrends-%s-%s.csv", d.Marketplace, d.Kind)
	writeCSV(w, r, name, csvHeader, func(emit func([]string) error) error {
		pos := dp.pos(q.At)
		return s.wh.ExportTerms(r.Context(), d, q, func(t warehouse.TermRow) error {
			dp.row(pos, &t)
			rec := []string{spreadsheetText(t.Term), strconv.Itoa(t.Rank)}
			for _, v := range t.Ranks {
				rec = append(rec, optInt(v))
			}
			for _, v := range t.Changes {
				rec = append(rec, optFloat(v))
			}
			rec = append(rec, strconv.Itoa(t.PeriodsPresent), strconv.FormatBool(t.New), strconv.FormatBool(t.Breakout),
				optFloat(t.ClickConc), optFloat(t.ConvConc), optFloat(t.Seasonality), optFloat(t.ComingUp),
				spreadsheetText(t.TopBrand), spreadsheetText(t.TopCategory), spreadsheetText(t.TopASIN))
			return emit(rec)
		})
	})
}

func optInt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', 4, 64)
}
