package warehouse

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/demandfile"
	"github.com/sellertrends/sellertrends/internal/trends/histfile"
)

// The demand file (package demandfile) answers a root-word group without DuckDB: written with
// the history file, from the same rows, it holds each term's lowercased string and its
// estimated searches in every period as float32. A group reads the file's columns whose
// import is the period's current one and asks fact for the dataset's other periods (imported
// or replaced since the file was written), so it answers as the SQL over fact does after
// every import, replacement and deletion. Two things differ by construction, both far below
// what a seller can see: the estimates are summed from float32 weights (within a few parts in
// 10^7 of the SQL's double sum, so a rounded figure may differ by one search in ten million),
// and the best rank is read back from the largest weight, exact while ranks stay below
// maxExactRank (float32 weights of consecutive ranks differ up to there).
const maxExactRank = 8_800_000

// demandFilePath is the demand file written with the history file at histPath.
func demandFilePath(histPath string) string { return strings.TrimSuffix(histPath, ".hist") + ".demand" }

// demandWeight is a rank's estimated searches as the demand file stores them.
func demandWeight(rank int) float32 {
	return float32(EstimateTop * math.Pow(float64(rank), -EstimateExponent))
}

// rankOfWeight is the best rank whose weight is w (demandWeight's inverse).
func rankOfWeight(w float32) int {
	guess := int(math.Round(math.Pow(float64(w)/EstimateTop, -1/EstimateExponent)))
	for r := max(1, guess-3); r <= guess+3; r++ {
		if demandWeight(r) == w {
			return r
		}
	}
	return max(1, guess)
}

// demandPeriods are the history file's periods as the demand file records them.
func demandPeriods(periods []histfile.Period) []demandfile.Period {
	out := make([]demandfile.Period, len(periods))
	for i, p := range periods {
		out[i] = demandfile.Period(p)
	}
	return out
}

// demandFileHolds says whether the demand file beside histPath is dataset ds's and holds
// exactly the loaded periods from their current imports.
func demandFileHolds(histPath string, ds int, loaded map[int]time.Time) bool {
	f, err := demandfile.Open(demandFilePath(histPath))
	if err != nil {
		return false
	}
	defer f.Close()
	held := make([]histfile.Period, len(f.Periods()))
	for i, p := range f.Periods() {
		held[i] = histfile.Period(p)
	}
	return f.Dataset() == int64(ds) && holdsExactly(held, loaded)
}

// rootWordFromFile answers a group's points from the dataset's demand file and fact for the
// periods the file does not hold; false when the file cannot answer (none, damaged, holding
// none of the current periods, or a phrase it cannot match).
func (w *Warehouse) rootWordFromFile(ctx context.Context, d *Dataset, phrase string) ([]RootWordPoint, bool, error) {
	recs, err := w.periodRecords(ctx, d.ID)
	if err != nil || len(recs.imported) == 0 {
		return nil, false, nil
	}
	path := historyFilePath(w.asinIndex, d.ID)
	w.hist.mu.RLock()
	_, damaged := w.hist.file(path, d.ID)
	if damaged {
		w.refreshHistoryFileLater(d.ID)
	}
	f := w.hist.demand[d.ID]
	if f == nil {
		w.hist.mu.RUnlock()
		return nil, false, nil
	}
	points := []RootWordPoint{}
	fromFile := map[int]bool{}
	lower := strings.ToLower(phrase)
	g, err := f.Group(lower)
	if err == nil {
		for i, p := range f.Periods() {
			at, ok := recs.imported[int(p.Idx)]
			if !ok || at.UnixMicro() != p.ImportedAt {
				continue // deleted or replaced since the file was written
			}
			fromFile[int(p.Idx)] = true
			if g.Terms[i] > 0 {
				points = append(points, RootWordPoint{Start: periodFromIndex(d.Kind, int(p.Idx)).Start, Terms: int(g.Terms[i]),
					EstimatedSearches: math.Round(g.Sum[i]), BestRank: rankOfWeight(g.Max[i])})
			}
		}
	}
	w.hist.mu.RUnlock()
	if errors.Is(err, demandfile.ErrPhrase) || len(fromFile) == 0 {
		return nil, false, nil
	}
	if err != nil {
		slog.Warn("trends: demand file damaged; it will be rewritten", "dataset", d.ID, "err", err)
		w.hist.drop(path, d.ID, true)
		w.refreshHistoryFileLater(d.ID)
		return nil, false, nil
	}
	var others []string
	for idx := range recs.imported {
		if !fromFile[idx] {
			others = append(others, strconv.Itoa(idx))
		}
	}
	if len(others) > 0 {
		rest, err := rootWordPointsSQL(ctx, w.db, d, phrase, strings.Join(others, ","))
		if err != nil {
			return nil, true, err
		}
		points = append(points, rest...)
	}
	slices.SortFunc(points, func(a, b RootWordPoint) int { return a.Start.Compare(b.Start) })
	return points, true, nil
}
