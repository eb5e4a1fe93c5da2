package warehouse

import (
	"context"
	"database/sql"
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

// rootWordTop is how many of a group's terms RootWords lists.
const rootWordTop = 20

// RootWords returns a phrase group's demand per period and its biggest terms now. The demand
// file gives both when it can (root_word_file.go): the terms are then read from term_stats by
// their strings, not searched for among 3M (100-200 ms of DuckDB's time on the benchmark set,
// beside the group's own).
func (w *Warehouse) RootWords(ctx context.Context, d *Dataset, phrase string) (*RootWord, error) {
	points, top, ok, err := w.rootWordFromFile(ctx, d, phrase, rootWordTop)
	if err == nil && !ok {
		points, err = w.rootWordPointsDB(ctx, d, phrase)
	}
	if err != nil {
		return nil, err
	}
	rw := &RootWord{Phrase: phrase, Points: points}
	if top != nil {
		rw.Top, err = w.termRowsOf(ctx, d, top)
		return rw, err
	}
	page, err := w.Explore(ctx, d, ExploreQuery{Search: phrase, Sort: "rank", Limit: rootWordTop, Window: 4})
	if err != nil {
		return nil, err
	}
	rw.Top = page.Rows
	return rw, nil
}

// termRowsOf reads the latest period's rows of the terms (each found by its hash in term_keys,
// as a history finds its term: termStatsIDQuery), ordered as Explore orders by rank.
func (w *Warehouse) termRowsOf(ctx context.Context, d *Dataset, terms []string) ([]TermRow, error) {
	out := []TermRow{}
	if len(terms) == 0 {
		return out, nil
	}
	want := map[string]bool{}
	args := []any{d.ID}
	for _, t := range terms {
		want[t] = true
		args = append(args, t)
	}
	hashes := strings.TrimSuffix(strings.Repeat(termHash("?")+",", len(terms)), ",")
	rows, err := w.db.QueryContext(ctx, `select `+termRowColumns+` from term_stats s join term_keys k on k.dataset_id = s.dataset_id and k.term_id = s.term_id
		where s.dataset_id = ? and k.term_hash in (`+hashes+`) order by s.rank nulls last, s.term_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("root words: top terms: %w", err)
	}
	var refs [][2]sql.NullInt64
	for rows.Next() {
		r, ref, err := scanTermRow(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		if want[r.Term] { // not a term that only shares a hash
			out, refs = append(out, r), append(refs, ref)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, w.fillTopNames(ctx, out, refs)
}
