package alerts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// Moves is what moved among a workspace's watched items in one dataset, between its latest
// period and the loaded period before it. It is computed once per dataset and then filtered
// per user (their threshold).
type Moves struct {
	Workspace string
	Dataset   warehouse.Dataset
	Period    report.Period // the latest period
	Previous  report.Period // the loaded period it is compared with
	Ranks     []RankMove
	Tops      []TopChange
	Breakouts []Breakout
}

// RankMove is a watched term's rank in the two periods; 0 means it was not ranked then.
type RankMove struct {
	Term     string
	Old, New int
}

// TopChange is a product or brand entering or leaving a term's top 3 clicked. Watched says
// which watched item it concerns: the term, or the product or brand.
type TopChange struct {
	Term    string
	Watched string // term | asin | brand
	Who     string // the ASIN or brand
	Title   string // the product's title, when known
	Entered bool   // false: it left
}

// Breakout is a term containing a watched term (a root word) that is a breakout in the latest
// period and was not one in the period before.
type Breakout struct {
	Term, Phrase string
	Rank         int
	RankAgo      int  // the rank BreakoutWindow periods earlier, 0 when it was not ranked
	New          bool // a new term (absent from the previous periods)
}

// Limits keep the work per import and the mail bounded whatever the watchlist holds.
const (
	slotChangesLimit   = 500 // top-3 changes read per kind (products, brands), best-ranked terms first
	breakoutsPerPhrase = 20  // breakouts read per watched root word
	breakoutWindow     = 4   // periods a breakout's rise is measured over (warehouse's ch_4)
	maxItemsPerGroup   = 20  // lines per group of the mail; the rest is counted
)

// moves reads what moved in a dataset for the watched items, or nil when the dataset has
// fewer than two periods (nothing to compare) or want refuses its latest period.
func (n *Notifier) moves(ctx context.Context, workspaceID string, datasetID int, items []store.WatchlistItem, want func(latest warehouse.PeriodCoverage) bool) (*Moves, error) {
	d, err := n.wh.DatasetByID(ctx, workspaceID, datasetID)
	if errors.Is(err, warehouse.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	sum, err := n.wh.DatasetSummary(ctx, d)
	if err != nil {
		return nil, err
	}
	if len(sum.Periods) < 2 || !want(*sum.Latest) {
		return nil, nil
	}
	last, prev := sum.Periods[len(sum.Periods)-1], sum.Periods[len(sum.Periods)-2]
	m := &Moves{Workspace: workspaceID, Dataset: *d,
		Period:   report.Period{Kind: d.Kind, Start: last.Start, End: last.End},
		Previous: report.Period{Kind: d.Kind, Start: prev.Start, End: prev.End}}
	byKind := map[string][]string{}
	for _, it := range items {
		byKind[it.Kind] = append(byKind[it.Kind], it.Value)
	}
	if err := m.addTerms(ctx, n.wh, byKind["term"]); err != nil {
		return nil, err
	}
	for _, kind := range []string{"asin", "brand"} {
		if err := m.addSlotChanges(ctx, n.wh, kind, byKind[kind]); err != nil {
			return nil, err
		}
	}
	if err := m.addBreakouts(ctx, n.wh, byKind["term"]); err != nil {
		return nil, err
	}
	sort.SliceStable(m.Ranks, func(i, j int) bool { return m.Ranks[i].size() > m.Ranks[j].size() })
	return m, nil
}

// addTerms reads the watched terms' rank moves and the products entering or leaving their top 3.
func (m *Moves) addTerms(ctx context.Context, wh *warehouse.Warehouse, terms []string) error {
	pairs, err := wh.TermPairs(ctx, &m.Dataset, terms, m.Previous.Start, m.Period.Start)
	if err != nil {
		return fmt.Errorf("alerts: watched terms: %w", err)
	}
	for _, p := range pairs {
		m.Ranks = append(m.Ranks, RankMove{Term: p.Term, Old: p.Rank[0], New: p.Rank[1]})
		if p.Rank[0] > 0 && p.Rank[1] > 0 { // a term out of the report has no top 3 to compare
			m.addProductChanges(p.Term, p.Products[0], p.Products[1])
		}
	}
	return nil
}

// addProductChanges lists the products that entered or left a watched term's top 3.
func (m *Moves) addProductChanges(term string, old, cur []warehouse.ProductShare) {
	in := func(list []warehouse.ProductShare, asin string) bool {
		for _, p := range list {
			if p.ASIN == asin {
				return true
			}
		}
		return false
	}
	for _, p := range cur {
		if !in(old, p.ASIN) {
			m.Tops = append(m.Tops, TopChange{Term: term, Watched: "term", Who: p.ASIN, Title: p.Title, Entered: true})
		}
	}
	for _, p := range old {
		if !in(cur, p.ASIN) {
			m.Tops = append(m.Tops, TopChange{Term: term, Watched: "term", Who: p.ASIN, Title: p.Title})
		}
	}
}

// addSlotChanges lists the terms whose top 3 a watched product (kind "asin") or brand entered or left.
func (m *Moves) addSlotChanges(ctx context.Context, wh *warehouse.Warehouse, kind string, keys []string) error {
	changes, err := wh.SlotChanges(ctx, &m.Dataset, kind, keys, m.Previous.Start, m.Period.Start, slotChangesLimit)
	if err != nil {
		return fmt.Errorf("alerts: watched %ss: %w", kind, err)
	}
	for _, c := range changes {
		m.Tops = append(m.Tops, TopChange{Term: c.Term, Watched: kind, Who: c.Key, Title: c.Title, Entered: c.Entered})
	}
	return nil
}

// addBreakouts lists the breakouts among the terms containing a watched term (a root word)
// that were not breakouts the period before; a term matching several root words is listed once.
func (m *Moves) addBreakouts(ctx context.Context, wh *warehouse.Warehouse, phrases []string) error {
	found, err := wh.BreakoutsContaining(ctx, &m.Dataset, phrases, breakoutsPerPhrase)
	if err != nil {
		return fmt.Errorf("alerts: breakouts: %w", err)
	}
	asWatched := map[string]string{} // the lowercased phrase the warehouse answers -> as watched
	for _, p := range phrases {
		asWatched[strings.ToLower(p)] = p
	}
	seen := map[string]bool{}
	for _, b := range found {
		if seen[b.Term] || wasBreakout(b.Spark) {
			continue
		}
		seen[b.Term] = true
		br := Breakout{Term: b.Term, Phrase: asWatched[b.Phrase], Rank: b.Rank, New: b.New}
		if b.RankAgo != nil {
			br.RankAgo = *b.RankAgo
		}
		m.Breakouts = append(m.Breakouts, br)
	}
	sort.SliceStable(m.Breakouts, func(i, j int) bool { return m.Breakouts[i].Rank < m.Breakouts[j].Rank })
	return nil
}

// wasBreakout applies the warehouse's breakout rule (stats.go: new, or risen 2x over 4 periods
// and better in each of the last 3) one period back, from the term's spark (its last 13 ranks,
// oldest first). The rule's coverage conditions (all 4 earlier periods loaded, ranked above
// their deepest rank) are not in the spark, so a term absent before is taken as having been new
// then, and is not announced twice.
func wasBreakout(spark []*int) bool {
	n := len(spark)
	if n < 6 {
		return false
	}
	at := func(ago int) *int { return spark[n-1-ago] } // ago = 0 is the latest period
	if at(1) == nil {
		return false
	}
	if at(2) == nil && at(3) == nil && at(4) == nil && at(5) == nil {
		return true
	}
	r1, r2, r3, r4, r5 := at(1), at(2), at(3), at(4), at(5)
	if r2 == nil || r3 == nil || r4 == nil || r5 == nil {
		return false
	}
	return math.Log2(float64(*r5)/float64(*r1)) >= warehouse.BreakoutRise && *r1 < *r2 && *r2 < *r3 && *r3 < *r4
}

// size is how far a rank moved, for ordering: entering or leaving the report counts as most.
func (r RankMove) size() float64 {
	if r.Old == 0 || r.New == 0 {
		return math.Inf(1)
	}
	return math.Abs(math.Log2(float64(r.Old) / float64(r.New)))
}

// beyond reports whether the move reaches threshold percent of the old rank; entering or
// leaving the report always does.
func (r RankMove) beyond(threshold int) bool {
	if r.Old == 0 || r.New == 0 {
		return r.Old != r.New
	}
	return math.Abs(float64(r.New-r.Old))*100 >= float64(threshold)*float64(r.Old)
}

// worthMailing reports whether anything moved for a user with this threshold.
func (m *Moves) worthMailing(threshold int) bool {
	return len(m.Tops) > 0 || len(m.Breakouts) > 0 || len(m.ranksBeyond(threshold)) > 0
}

func (m *Moves) ranksBeyond(threshold int) []RankMove {
	var out []RankMove
	for _, r := range m.Ranks {
		if r.beyond(threshold) {
			out = append(out, r)
		}
	}
	return out
}
