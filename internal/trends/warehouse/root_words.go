package warehouse

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
)

// Estimated searches: Brand Analytics gives ranks, not volumes. We map a rank to weekly searches
// with a power law, searches ≈ EstimateTop × rank^-EstimateExponent, a curve of the shape
// published rank-volume studies report. It is an estimate and always labelled as one.
const (
	EstimateTop      = 4_000_000.0 // weekly searches of the rank-1 term
	EstimateExponent = 0.85
)

// EstimatedSearches maps a weekly rank to an estimated number of weekly searches.
func EstimatedSearches(rank int) float64 {
	if rank < 1 {
		return 0
	}
	return math.Round(EstimateTop * math.Pow(float64(rank), -EstimateExponent))
}

// RootWordPoint is a phrase group's demand in one period.
type RootWordPoint struct {
	Start             time.Time `json:"start"`
	Terms             int       `json:"terms"`
	EstimatedSearches float64   `json:"estimatedSearches"`
	BestRank          int       `json:"bestRank"`
}

// RootWord groups every term containing phrase and tracks the group like a term.
type RootWord struct {
	Phrase string          `json:"phrase"`
	Points []RootWordPoint `json:"points"`
	Top    []TermRow       `json:"topTerms"`
}

// RootWords returns a phrase group's demand per period and its biggest terms now.
func (w *Warehouse) RootWords(ctx context.Context, d *Dataset, phrase string) (*RootWord, error) {
	// The matching term ids first (one scan of the dictionary), then the facts of those ids:
	// joining every fact row to its term string scanned 468M rows with a string filter.
	rows, err := w.db.QueryContext(ctx, `select f.period_idx, count(*), sum(?::double * pow(f.rank, -?::double)), min(f.rank)
		from fact f where f.dataset_id = ? and f.term_id in (
			select id from term t where t.dataset_id = ? and contains(lower(t.term), ?))
		group by f.period_idx order by f.period_idx`,
		EstimateTop, EstimateExponent, d.ID, d.ID, strings.ToLower(phrase))
	if err != nil {
		return nil, fmt.Errorf("root words: %w", err)
	}
	defer rows.Close()
	rw := &RootWord{Phrase: phrase, Points: []RootWordPoint{}}
	for rows.Next() {
		var idx int
		var p RootWordPoint
		if err := rows.Scan(&idx, &p.Terms, &p.EstimatedSearches, &p.BestRank); err != nil {
			return nil, err
		}
		p.Start, p.EstimatedSearches = periodFromIndex(d.Kind, idx).Start, math.Round(p.EstimatedSearches)
		rw.Points = append(rw.Points, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	page, err := w.Explore(ctx, d, ExploreQuery{Search: phrase, Sort: "rank", Limit: 20, Window: 4})
	if err != nil {
		return nil, err
	}
	rw.Top = page.Rows
	return rw, nil
}
