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
// and the best rank is read back from the largest weight, exact while ranks stay below 8.8M
// (float32 weights of consecutive ranks differ up to there; Brand Analytics ranks stop near
// 3-4M).

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
// none of the current periods, or a phrase it cannot match). With top > 0 it also returns the
// group's top terms of the latest period, best rank first, when the file holds that period and
// the dataset's terms are lowercase (the file's strings are then the terms); nil otherwise.
func (w *Warehouse) rootWordFromFile(ctx context.Context, d *Dataset, phrase string, top int) ([]RootWordPoint, []string, bool, error) {
	recs, err := w.periodRecords(ctx, d.ID)
	if err != nil || len(recs.imported) == 0 {
		return nil, nil, false, nil
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
		return nil, nil, false, nil
	}
	fromFile, latestColumn := currentColumns(f.Periods(), recs.imported)
	if latestColumn < 0 || !d.LowercaseTerms {
		top = 0
	}
	points := []RootWordPoint{}
	g, err := f.Group(strings.ToLower(phrase), max(latestColumn, 0), top)
	if err == nil {
		for i, p := range f.Periods() {
			if fromFile[int(p.Idx)] && g.Terms[i] > 0 {
				points = append(points, RootWordPoint{Start: periodFromIndex(d.Kind, int(p.Idx)).Start, Terms: int(g.Terms[i]),
					EstimatedSearches: math.Round(g.Sum[i]), BestRank: rankOfWeight(g.Max[i])})
			}
		}
	}
	w.hist.mu.RUnlock()
	if errors.Is(err, demandfile.ErrPhrase) || len(fromFile) == 0 {
		return nil, nil, false, nil
	}
	if err != nil {
		slog.Warn("trends: demand file damaged; it will be rewritten", "dataset", d.ID, "err", err)
		w.hist.drop(path, d.ID, true)
		w.refreshHistoryFileLater(d.ID)
		return nil, nil, false, nil
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
			return nil, nil, true, err
		}
		points = append(points, rest...)
	}
	slices.SortFunc(points, func(a, b RootWordPoint) int { return a.Start.Compare(b.Start) })
	return points, topTerms(g.Top, top), true, nil
}

// currentColumns are the file's periods that are still loaded from the same import, and the
// column of the dataset's latest period (-1 when the file does not hold it from its current
// import).
func currentColumns(held []demandfile.Period, imported map[int]time.Time) (map[int]bool, int) {
	latest := -1
	for idx := range imported {
		latest = max(latest, idx)
	}
	current, column := map[int]bool{}, -1
	for i, p := range held {
		at, ok := imported[int(p.Idx)]
		if !ok || at.UnixMicro() != p.ImportedAt {
			continue // deleted or replaced since the file was written
		}
		current[int(p.Idx)] = true
		if int(p.Idx) == latest {
			column = i
		}
	}
	return current, column
}

// topTerms are the top terms' strings; nil when none were asked for or one holds the byte the
// file stores a zero byte as (its stored string is not the term).
func topTerms(top []demandfile.Top, asked int) []string {
	if asked == 0 {
		return nil
	}
	out := []string{}
	for _, t := range top {
		if strings.IndexByte(t.Term, 1) >= 0 {
			return nil
		}
		out = append(out, t.Term)
	}
	return out
}
