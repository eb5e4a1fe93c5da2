package warehouse

import (
	"database/sql"
	"math"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// TermMeasures are one term's measures at one period, as lists show them (TermRow), computed
// from the term's history by the definitions measuresTemplate computes them by from the
// facts (a test compares the two). Seasonality is left out: it needs the term's two years,
// which a history of a past period does not answer as they stood then.
type TermMeasures struct {
	Start          time.Time   `json:"start"` // the period's first day
	Rank           int         `json:"rank"`
	Ranks          [4]*int     `json:"ranksAgo"` // rank 1, 4, 13, 52 periods before
	Changes        [4]*float64 `json:"changes"`  // log2 change over 1, 4, 13, 52 periods
	PeriodsPresent int         `json:"periodsPresent"`
	New            bool        `json:"new"`
	NewCompared    int         `json:"newComparedPeriods"` // the earlier periods "new" compared with
	Breakout       bool        `json:"breakout"`
	ClickConc      *float64    `json:"clickConcentration"`
	ConvConc       *float64    `json:"conversionConcentration"`
	ComingUp       *float64    `json:"comingUp"`
	Spark          []*int      `json:"spark"`
}

// measuresAt computes the measures at period L of a term whose points (by period index) are
// given, in a dataset whose loaded periods have the deepest ranks in deepest.
func measuresAt(kind report.PeriodKind, points map[int]HistoryPoint, deepest map[int]int, L int) *TermMeasures {
	rank := func(idx int) *int { return points[idx].Rank }
	now := *rank(L)
	m := &TermMeasures{Start: periodFromIndex(kind, L).Start, Rank: now, ClickConc: points[L].ClickConc, ConvConc: points[L].ConvConc}
	change := func(old *int) *float64 {
		if old == nil {
			return nil
		}
		v := math.Log2(float64(*old) / float64(now))
		return &v
	}
	for i, w := range Windows {
		m.Ranks[i], m.Changes[i] = rank(L-w), change(rank(L-w))
	}
	for idx, p := range points {
		if idx <= L && p.Rank != nil {
			m.PeriodsPresent++
		}
	}
	shallowest, wasPresent := 0, false
	for idx := L - NewLookback; idx < L; idx++ {
		if d, ok := deepest[idx]; ok {
			m.NewCompared++
			if shallowest == 0 || d < shallowest {
				shallowest = d
			}
		}
		wasPresent = wasPresent || rank(idx) != nil
	}
	m.New = m.NewCompared >= 1 && !wasPresent && now < shallowest
	better := func(a, b *int) bool { return a != nil && b != nil && *a < *b }
	r1, r2, r3 := rank(L-1), rank(L-2), rank(L-3)
	m.Breakout = m.New || (m.Changes[1] != nil && *m.Changes[1] >= BreakoutRise && better(&now, r1) && better(r1, r2) && better(r2, r3))
	yearAgo := L - yearOfPeriods
	var best *int
	for idx := yearAgo + ComingUpFrom; idx <= yearAgo+ComingUpTo; idx++ {
		if r := rank(idx); r != nil && (best == nil || *r < *best) {
			best = r
		}
	}
	if r52 := rank(yearAgo); r52 != nil && best != nil {
		v := math.Log2(float64(*r52) / float64(*best))
		m.ComingUp = &v
	}
	for idx := L - SparkPeriods + 1; idx <= L; idx++ {
		m.Spark = append(m.Spark, rank(idx))
	}
	return m
}

// concentration is concentrationSQL for one fact row: the sum of shares (click or conv of r)
// over the slots holding a product, nil when none does or one of them has a blank share.
func concentration(r factRow, shares [3]sql.NullInt64) *float64 {
	var sum int64
	held := false
	for k := range 3 {
		if !r.asin[k].Valid && !r.click[k].Valid && !r.conv[k].Valid {
			continue
		}
		if !shares[k].Valid {
			return nil
		}
		held, sum = true, sum+shares[k].Int64
	}
	if !held {
		return nil
	}
	v := float64(sum) / 10000
	return &v
}
