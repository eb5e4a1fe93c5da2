// Package demo generates a realistic, deterministic search-term dataset: Zipf-like ranks, churn
// in the long tail, seasonal terms (Prime Day, back to school, Halloween, Black Friday,
// Christmas), steady risers and fallers, fads, and top products and brands that change hands.
// The same seed always gives the same reports.
package demo

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// Size says how big a demo to build.
type Size struct {
	Terms int
	Weeks int
	Seed  uint64
	End   time.Time // the last week ends on or before this day
}

// DefaultSize builds in seconds and spans two years, so seasonality shows.
func DefaultSize(now time.Time) Size { return Size{Terms: 4000, Weeks: 104, Seed: 42, End: now} }

var (
	nouns = []string{"yoga mat", "water bottle", "air fryer", "phone case", "desk lamp", "backpack", "running shoes", "coffee maker",
		"wireless earbuds", "throw blanket", "dog bed", "cat toy", "paper towels", "sunscreen", "rain jacket", "hiking boots",
		"office chair", "standing desk", "bath towels", "shower curtain", "lunch box", "notebook", "gel pens", "face mask",
		"hair dryer", "curling iron", "bluetooth speaker", "smart watch", "fitness tracker", "resistance bands", "dumbbells",
		"kitchen scale", "knife set", "cutting board", "storage bins", "laundry basket", "led strip lights", "wall art",
		"picture frame", "candle", "essential oils", "humidifier", "air purifier", "vacuum cleaner", "mop", "trash can",
		"pillow", "sheet set", "mattress topper", "duvet cover", "slippers", "hoodie", "leggings", "t shirt", "socks", "beanie"}
	modifiers = []string{"", "best", "cheap", "large", "small", "kids", "women", "men", "organic", "portable", "wireless", "waterproof",
		"black", "white", "pink", "blue", "bamboo", "stainless steel", "foldable", "rechargeable", "heavy duty", "mini", "xl",
		"2 pack", "set of 4", "vintage", "modern", "cute", "aesthetic", "travel", "outdoor", "indoor", "premium", "eco friendly"}
	brands     = []string{"Acmeo", "Brevell", "Corevia", "Dunmore", "Everpeak", "Fernhill", "Glowood", "Huxley+Rowe", "Ironleaf", "Juniper & Jade", "Kestrel", "Lumaro", "Mossfield", "Northbay", "Orbitek", "Pinecrest Labs", "Quillon", "Solmere", "Vantro", "Zentrova"}
	categories = []string{"Home", "Kitchen", "Sports", "Beauty", "Electronics", "Pet Products", "Office Product", "Apparel", "Toys", "Grocery"}
	// seasonal events as week-of-year peaks
	events = []struct {
		name string
		week int
	}{{"prime day", 28}, {"back to school", 32}, {"halloween", 43}, {"black friday", 47}, {"christmas", 50}}
)

type shape int

const (
	steady shape = iota
	riser
	faller
	seasonal
	fad
)

type termSpec struct {
	text     string
	base     float64 // popularity; higher = better rank
	shape    shape
	peakWeek int     // seasonal: week of year; fad: week index of its peak
	strength float64 // rise/fall per week, seasonal amplitude or fad height
	start    int     // first week it can appear
	asins    [5]string
	brandIdx [5]int
	category string
	flipWeek int // week at which the top product changes hands
}

// Generator produces the demo weeks.
type Generator struct {
	size  Size
	terms []termSpec
	weeks []report.Period
}

// New prepares a generator.
func New(size Size) *Generator {
	r := rand.New(rand.NewPCG(size.Seed, size.Seed^0x9e3779b97f4a7c15))
	g := &Generator{size: size}
	g.weeks = weeksEnding(size.End, size.Weeks)
	seen := map[string]bool{}
	for i := 0; len(g.terms) < size.Terms; i++ {
		text := termText(r, i)
		if seen[text] {
			// The vocabulary holds ~11k phrases; beyond that, model numbers keep terms unique
			// (and loop-free at benchmark sizes), as real long-tail queries do.
			text = fmt.Sprintf("%s %d", text, 100+i)
		}
		if seen[text] {
			continue
		}
		seen[text] = true
		g.terms = append(g.terms, g.spec(r, text, len(g.terms)))
	}
	return g
}

func termText(r *rand.Rand, i int) string {
	if i < len(events)*3 {
		e := events[i%len(events)]
		return e.name + []string{" decorations", " deals", " gifts"}[i/len(events)]
	}
	n := nouns[r.IntN(len(nouns))]
	m := modifiers[r.IntN(len(modifiers))]
	text := n
	if m != "" {
		text = m + " " + n
	}
	if r.IntN(4) == 0 {
		text += []string{" for women", " for men", " for kids", " 2026", " bulk"}[r.IntN(5)]
	}
	return text
}

func (g *Generator) spec(r *rand.Rand, text string, i int) termSpec {
	s := termSpec{text: text, base: 1 / math.Pow(float64(i+1), 1.05), category: categories[r.IntN(len(categories))], flipWeek: r.IntN(g.size.Weeks * 2)}
	switch roll := r.Float64(); {
	case i < len(events)*3:
		s.shape, s.peakWeek, s.strength = seasonal, events[i%len(events)].week, 40+r.Float64()*40
	case roll < 0.06:
		s.shape, s.strength = riser, 0.01+r.Float64()*0.03
	case roll < 0.12:
		s.shape, s.strength = faller, 0.01+r.Float64()*0.03
	case roll < 0.25:
		s.shape, s.peakWeek, s.strength = seasonal, 1+r.IntN(52), 3+r.Float64()*10
	case roll < 0.28:
		s.shape, s.peakWeek, s.strength = fad, g.size.Weeks/3+r.IntN(g.size.Weeks*2/3), 20+r.Float64()*80
		s.start = max(0, s.peakWeek-6)
	case roll < 0.33:
		s.start = r.IntN(g.size.Weeks) // appears later: "new"
	}
	if i%150 == 17 { // a few terms appear in the last weeks, so "new this week" is never empty
		s.start, s.base = g.size.Weeks-1-(i/150)%2, s.base*20
	}
	for k := range s.asins {
		// Multiplying by an odd constant is a bijection mod 2^32: ASINs look random but never
		// collide, so the direct build can number them without a lookup.
		s.asins[k] = fmt.Sprintf("B0%08X", uint32(i*5+k)*2654435761)
		s.brandIdx[k] = r.IntN(len(brands))
	}
	return s
}

// weeksEnding lists n Sunday–Saturday weeks, the last ending on the Saturday before end.
func weeksEnding(end time.Time, n int) []report.Period {
	end = time.Date(end.Year(), end.Month(), end.Day(), 0, 0, 0, 0, time.UTC)
	for end.Weekday() != time.Saturday {
		end = end.AddDate(0, 0, -1)
	}
	out := make([]report.Period, n)
	for i := range n {
		e := end.AddDate(0, 0, -7*(n-1-i))
		out[i] = report.Period{Kind: report.Week, Start: e.AddDate(0, 0, -6), End: e}
	}
	return out
}

// score is a term's popularity in week w (0 = absent).
func (g *Generator) score(s *termSpec, w int, r *rand.Rand) float64 {
	if w < s.start {
		return 0
	}
	v := s.base
	_, woy := g.weeks[w].End.ISOWeek()
	switch s.shape {
	case riser:
		v *= math.Exp(s.strength * float64(w))
	case faller:
		v *= math.Exp(-s.strength * float64(w))
	case seasonal:
		d := float64(min(abs(woy-s.peakWeek), 52-abs(woy-s.peakWeek)))
		v *= 1 + s.strength*math.Exp(-d*d/8)
	case fad:
		d := float64(w - s.peakWeek)
		if d > 0 {
			d *= 0.4 // fads fade slower than they rise
		}
		v *= 1 + s.strength*math.Exp(-d*d/6)
	}
	v *= math.Exp(r.NormFloat64() * 0.12)
	// Long-tail churn: obscure terms drop out of some weeks.
	if s.base < 1.0/float64(g.size.Terms/2) && r.Float64() < 0.15 {
		return 0
	}
	return v
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Week returns week w's report as a row source. Rows are made as they are read, so a 3M-term
// week holds only the ranking in memory.
func (g *Generator) Week(w int) warehouse.RowSource {
	r := rand.New(rand.NewPCG(g.size.Seed+uint64(w)*7919, uint64(w)))
	list := make([]scored, 0, len(g.terms))
	for i := range g.terms {
		if v := g.score(&g.terms[i], w, r); v > 0 {
			list = append(list, scored{i, v})
		}
	}
	sort.Slice(list, func(a, b int) bool { return list[a].v > list[b].v })
	return &weekSource{g: g, w: w, r: r, list: list, meta: report.Meta{Layout: report.LayoutAmazonTST, Marketplace: "amazon.com", Period: g.weeks[w],
		Name: fmt.Sprintf("demo_week_%s.csv", g.weeks[w].End.Format("2006_01_02"))}}
}

// NextWeek adds the week after the generated span and returns its number, for a report that
// continues a built dataset (the import benchmark).
func (g *Generator) NextWeek() int {
	last := g.weeks[len(g.weeks)-1]
	g.weeks = append(g.weeks, report.Period{Kind: report.Week, Start: last.Start.AddDate(0, 0, 7), End: last.End.AddDate(0, 0, 7)})
	return len(g.weeks) - 1
}

type scored struct {
	i int
	v float64
}

// row picks the term's top 3 products; the leader changes hands at flipWeek.
func (g *Generator) row(s *termSpec, rank, w int, r *rand.Rand) report.Row {
	row := report.Row{Line: rank + 2, Term: s.text, Rank: int32(rank), Categories: [3]string{s.category}}
	order := []int{0, 1, 2, 3, 4}
	if w >= s.flipWeek {
		order = []int{3, 0, 4, 1, 2}
	}
	slots := 3
	if rank > g.size.Terms*3/4 && r.IntN(3) == 0 {
		slots = 1 + r.IntN(2) // long-tail terms often list fewer products
	}
	remaining := 0.85
	for k := 0; k < slots; k++ {
		p := s.asins[order[k]]
		click := remaining * (0.35 + r.Float64()*0.25)
		remaining -= click
		conv := math.Min(1, click*(0.6+r.Float64()*0.8))
		brand := brands[s.brandIdx[order[k]]]
		row.Products[k] = report.Product{ASIN: p, Title: brand + " " + s.text, ClickShare: float32(click), ConversionShare: float32(conv)}
		row.Brands[k] = brand
	}
	for k := slots; k < 3; k++ {
		row.Products[k] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
	}
	return row
}

type weekSource struct {
	meta report.Meta
	g    *Generator
	w    int
	r    *rand.Rand
	list []scored
	i    int
}

func (s *weekSource) Meta() report.Meta { return s.meta }
func (s *weekSource) Next() (report.Row, error) {
	if s.i >= len(s.list) {
		return report.Row{}, io.EOF
	}
	s.i++
	return s.g.row(&s.g.terms[s.list[s.i-1].i], s.i, s.w, s.r), nil
}

// Build imports every week into workspace and computes the measures once at the end.
func Build(ctx context.Context, wh *warehouse.Warehouse, workspace string, size Size, progress func(week, weeks int)) error {
	g := New(size)
	var ds int
	for w := range size.Weeks {
		rec, err := wh.Import(ctx, g.Week(w), warehouse.ImportOptions{Workspace: workspace, ImportedBy: "demo generator", SkipStats: true})
		if err != nil {
			return fmt.Errorf("demo week %d: %w", w, err)
		}
		ds = rec.DatasetID
		if progress != nil {
			progress(w+1, size.Weeks)
		}
	}
	if err := wh.RebuildStats(ctx, ds); err != nil {
		return err
	}
	return wh.Compact(ctx, ds)
}

// Exists reports whether the workspace already has data.
func Exists(ctx context.Context, wh *warehouse.Warehouse, workspace string) (bool, error) {
	ds, err := wh.Datasets(ctx, workspace)
	return len(ds) > 0 && ds[0].Periods > 0, err
}
