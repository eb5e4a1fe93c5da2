package warehouse

import (
	"context"
	"math"
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

// RootWords returns a phrase group's demand per period and its biggest terms now. The two
// are independent, so they are asked at once: the points mostly run in Go (root_word_file.go)
// while DuckDB answers the top terms.
func (w *Warehouse) RootWords(ctx context.Context, d *Dataset, phrase string) (*RootWord, error) {
	var page *Page
	var exploreErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		page, exploreErr = w.Explore(ctx, d, ExploreQuery{Search: phrase, Sort: "rank", Limit: 20, Window: 4})
	}()
	points, err := w.rootWordPoints(ctx, d, phrase)
	<-done
	if err != nil {
		return nil, err
	}
	if exploreErr != nil {
		return nil, exploreErr
	}
	return &RootWord{Phrase: phrase, Points: points, Top: page.Rows}, nil
}
