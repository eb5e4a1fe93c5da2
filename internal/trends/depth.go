package trends

import (
	"context"
	"slices"
	"time"

	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// depth is how much of a dataset's history a workspace's plan shows: the latest
// plan.Limits.HistoryPeriods calendar periods (loaded or missing). The warehouse answers over the
// whole history; every answer passes through a depth before it leaves, so nothing older reaches
// a plan that does not include it (a rank, a change, a spark point, a count, a season), and a
// question that could only be answered from older periods is refused with PLAN_LIMIT_REACHED.
type depth struct {
	plan    plan.Plan
	visible int         // periods shown; plan.Unlimited: all
	cal     []time.Time // starts of every period from the first loaded to the latest, oldest first
	floor   int         // index in cal of the oldest period shown
	year    int         // periods in a year of the dataset's kind (seasonal measures)
}

// depthOf reads what the request's workspace may see of dataset d.
func (s *Service) depthOf(ctx context.Context, d *warehouse.Dataset) (*depth, error) {
	if d.Workspace == DemoWorkspace {
		return &depth{plan: plan.Everything, visible: plan.Unlimited}, nil // the demo is a showcase
	}
	p, err := s.plans(ctx, d.Workspace)
	if err != nil {
		return nil, err
	}
	dp := &depth{plan: p, visible: p.VisiblePeriods()}
	if dp.visible == plan.Unlimited {
		return dp, nil
	}
	sum, err := s.wh.DatasetSummary(ctx, d)
	if err != nil {
		return nil, err
	}
	for _, pc := range sum.Periods {
		dp.cal = append(dp.cal, pc.Start)
	}
	for _, g := range sum.Gaps {
		dp.cal = append(dp.cal, g.Start)
	}
	slices.SortFunc(dp.cal, func(a, b time.Time) int { return a.Compare(b) })
	dp.floor = max(0, len(dp.cal)-dp.visible)
	dp.year = map[report.PeriodKind]int{report.Week: 52, report.Month: 12, report.Quarter: 4}[d.Kind]
	if dp.year == 0 {
		dp.year = 365
	}
	return dp, nil
}

func (dp *depth) unlimited() bool { return dp.visible == plan.Unlimited }

// refuse is the 403 for a question that needs need periods of history.
func (dp *depth) refuse(need int) error { return planError(dp.plan.Allow(plan.History, need, 0)) }

// floorStart is the first day shown (zero: everything is).
func (dp *depth) floorStart() time.Time {
	if dp.unlimited() || dp.floor == 0 {
		return time.Time{}
	}
	return dp.cal[dp.floor]
}

// checkAt refuses a day before the oldest period shown.
func (dp *depth) checkAt(at time.Time) error {
	if f := dp.floorStart(); !at.IsZero() && !f.IsZero() && at.Before(f) {
		return dp.refuse(dp.visible + 1)
	}
	return nil
}

// checkQuery refuses list parameters that select or order by older periods: a change window
// reaching past them, measures of a year or of the whole history, an earlier period.
func (dp *depth) checkQuery(q warehouse.ExploreQuery) error {
	if dp.unlimited() {
		return nil
	}
	need := q.Window + 1
	switch q.Sort {
	case "change13":
		need = max(need, 14)
	case "change52":
		need = max(need, 53)
	case "seasonality", "comingUp", "periodsPresent":
		need = max(need, dp.visible+1)
	}
	if q.List == "coming-up" || q.MinPeriods > 0 {
		need = max(need, dp.visible+1)
	}
	if need > dp.visible {
		return dp.refuse(need)
	}
	return dp.checkAt(q.At)
}

// pos is the index in cal of the period containing day at (zero: the latest).
func (dp *depth) pos(at time.Time) int {
	if at.IsZero() {
		return len(dp.cal) - 1
	}
	i, found := slices.BinarySearchFunc(dp.cal, at, func(a, b time.Time) int { return a.Compare(b) })
	if !found {
		i--
	}
	return i
}

// shows reports whether the period k periods before the one at pos is shown.
func (dp *depth) shows(pos, k int) bool { return dp.unlimited() || pos-k >= dp.floor }

// measures hides from one period's measures (at pos) what older periods made.
func (dp *depth) measures(pos int, ranks *[4]*int, changes *[4]*float64, spark []*int, present *int, season, comingUp **float64) {
	if dp.unlimited() {
		return
	}
	for i, k := range []int{1, 4, 13, 52} {
		if !dp.shows(pos, k) {
			ranks[i], changes[i] = nil, nil
		}
	}
	// The spark ends at the row's period, oldest first.
	shown := 0
	for i := range spark {
		if !dp.shows(pos, len(spark)-1-i) {
			spark[i] = nil
		} else if spark[i] != nil {
			shown++
		}
	}
	if dp.floor > 0 { // it may count older periods: recount what is shown
		if len(spark) > 0 && dp.visible <= len(spark) {
			*present = shown
		} else {
			*present = min(*present, pos-dp.floor+1)
		}
	}
	if season != nil && !dp.shows(pos, 2*dp.year) { // a year against the year before
		*season = nil
	}
	if !dp.shows(pos, dp.year) { // last year's rise
		*comingUp = nil
	}
}

// row applies measures to a list row of the period at pos.
func (dp *depth) row(pos int, r *warehouse.TermRow) {
	dp.measures(pos, &r.Ranks, &r.Changes, r.Spark, &r.PeriodsPresent, &r.Seasonality, &r.ComingUp)
}

// page applies row to a list of the period containing at.
func (dp *depth) page(p *warehouse.Page, at time.Time) {
	if p == nil || dp.unlimited() {
		return
	}
	pos := dp.pos(at)
	for i := range p.Rows {
		dp.row(pos, &p.Rows[i])
	}
}

// summary leaves out the periods and gaps older than the floor, saying how many.
func (dp *depth) summary(s *warehouse.Summary) {
	f := dp.floorStart()
	if s == nil || f.IsZero() {
		return
	}
	n := len(s.Periods)
	s.Periods = slices.DeleteFunc(s.Periods, func(p warehouse.PeriodCoverage) bool { return p.Start.Before(f) })
	s.Gaps = slices.DeleteFunc(s.Gaps, func(p report.Period) bool { return p.Start.Before(f) })
	s.HiddenPeriods = n - len(s.Periods)
	s.Dataset.Periods = len(s.Periods)
}

// histories leaves out older points and the measures older periods made.
func (dp *depth) histories(hs []warehouse.TermHistory) {
	f := dp.floorStart()
	if f.IsZero() {
		return
	}
	for i := range hs {
		hs[i].Points = slices.DeleteFunc(hs[i].Points, func(p warehouse.HistoryPoint) bool { return p.Start.Before(f) })
		if m := hs[i].Measures; m != nil {
			dp.measures(dp.pos(m.Start), &m.Ranks, &m.Changes, m.Spark, &m.PeriodsPresent, nil, &m.ComingUp)
		}
	}
}

// presence leaves out older places, and the terms left with none.
func (dp *depth) presence(p *warehouse.Presence) {
	f := dp.floorStart()
	if p == nil || f.IsZero() {
		return
	}
	for i := range p.Terms {
		p.Terms[i].Points = slices.DeleteFunc(p.Terms[i].Points, func(s warehouse.ShareAt) bool { return s.Start.Before(f) })
	}
	p.Terms = slices.DeleteFunc(p.Terms, func(t warehouse.TermShares) bool { return len(t.Points) == 0 })
}

// rootWord leaves out older points and hides the top terms' older measures.
func (dp *depth) rootWord(rw *warehouse.RootWord) {
	f := dp.floorStart()
	if rw == nil || f.IsZero() {
		return
	}
	rw.Points = slices.DeleteFunc(rw.Points, func(p warehouse.RootWordPoint) bool { return p.Start.Before(f) })
	for i := range rw.Top {
		dp.row(dp.pos(time.Time{}), &rw.Top[i])
	}
}
