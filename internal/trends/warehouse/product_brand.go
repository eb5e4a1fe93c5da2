package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"time"
)

// ShareAt is a product's or brand's place for one term in one period.
type ShareAt struct {
	Start           time.Time `json:"start"`
	Rank            int       `json:"rank"` // the term's search frequency rank
	Slot            int       `json:"slot"` // 1..3 among the top clicked
	ClickShare      *float64  `json:"clickShare"`
	ConversionShare *float64  `json:"conversionShare"`
}

// TermShares is every period where a product or brand was in a term's top 3.
type TermShares struct {
	Term   string    `json:"term"`
	Latest int       `json:"latestRank"`
	Points []ShareAt `json:"points"`
}

// Presence is the answer of the product and brand views.
type Presence struct {
	Key   string       `json:"key"`
	Title string       `json:"title,omitempty"`
	Terms []TermShares `json:"terms"`
}

// ProductTerms lists every term where the ASIN is among the top 3 clicked products, with its shares over time.
func (w *Warehouse) ProductTerms(ctx context.Context, d *Dataset, asin string, limit int) (*Presence, error) {
	var id int
	var title sql.NullString
	err := w.db.QueryRowContext(ctx, `select id, title from asin where asin = ?`, strings.ToUpper(asin)).Scan(&id, &title)
	if err != nil {
		return nil, notFound(err)
	}
	p, err := w.presence(ctx, d, `f.asin1 = $2`, `f.asin2 = $2`, `f.asin3 = $2`, id, limit)
	if err != nil {
		return nil, err
	}
	p.Key, p.Title = strings.ToUpper(asin), title.String
	return p, nil
}

// BrandTerms lists every term where the brand is among the top 3 clicked brands. Brand columns carry
// no shares of their own, so a brand's shares are those of the product in the same slot (TST files
// list them side by side; whether they belong together is unconfirmed, so the slot is shown too).
func (w *Warehouse) BrandTerms(ctx context.Context, d *Dataset, brand string, limit int) (*Presence, error) {
	var id int
	var name string
	if err := w.db.QueryRowContext(ctx, `select id, name from brand where lower(name) = lower(?)`, brand).Scan(&id, &name); err != nil {
		return nil, notFound(err)
	}
	p, err := w.presence(ctx, d, `f.brand1 = $2`, `f.brand2 = $2`, `f.brand3 = $2`, id, limit)
	if err != nil {
		return nil, err
	}
	p.Key = name
	return p, nil
}

func (w *Warehouse) presence(ctx context.Context, d *Dataset, c1, c2, c3 string, id, limit int) (*Presence, error) {
	q := fmt.Sprintf(`with hits as (
		select f.term_id, f.period_idx, f.rank,
			case when %[1]s then 1 when %[2]s then 2 else 3 end as slot,
			case when %[1]s then f.click1 when %[2]s then f.click2 else f.click3 end as click,
			case when %[1]s then f.conv1 when %[2]s then f.conv2 else f.conv3 end as conv
		from fact f where f.dataset_id = $1 and (%[1]s or %[2]s or %[3]s)),
	top as (select term_id from hits group by term_id order by min(rank) limit $3)
	select t.term, h.period_idx, h.rank, h.slot, h.click, h.conv from hits h
	join top using (term_id) join term t on t.dataset_id = $1 and t.id = h.term_id
	order by t.term, h.period_idx`, c1, c2, c3)
	rows, err := w.db.QueryContext(ctx, q, d.ID, id, limit)
	if err != nil {
		return nil, fmt.Errorf("presence: %w", err)
	}
	defer rows.Close()
	byTerm := map[string]*TermShares{}
	var order []string
	for rows.Next() {
		var term string
		var idx, rank, slot int
		var click, conv sql.NullInt64
		if err := rows.Scan(&term, &idx, &rank, &slot, &click, &conv); err != nil {
			return nil, err
		}
		ts, ok := byTerm[term]
		if !ok {
			ts = &TermShares{Term: term}
			byTerm[term] = ts
			order = append(order, term)
		}
		ts.Points = append(ts.Points, ShareAt{Start: periodFromIndex(d.Kind, idx).Start, Rank: rank, Slot: slot, ClickShare: share(click), ConversionShare: share(conv)})
		ts.Latest = rank
	}
	p := &Presence{Terms: make([]TermShares, 0, len(order))}
	for _, t := range order {
		p.Terms = append(p.Terms, *byTerm[t])
	}
	sort.SliceStable(p.Terms, func(i, j int) bool { return p.Terms[i].Latest < p.Terms[j].Latest })
	return p, rows.Err()
}
