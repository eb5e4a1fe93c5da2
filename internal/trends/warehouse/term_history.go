package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// MaxCompare is how many terms one history request may hold.
const MaxCompare = 10

// ProductShare is one of a term's top-3 clicked products in one period.
type ProductShare struct {
	ASIN            string   `json:"asin"`
	Title           string   `json:"title,omitempty"`
	ClickShare      *float64 `json:"clickShare"`
	ConversionShare *float64 `json:"conversionShare"`
}

// HistoryPoint is a term in one period; Rank is nil when the term is absent or the period missing.
type HistoryPoint struct {
	Start      time.Time      `json:"start"`
	Rank       *int           `json:"rank"`
	Loaded     bool           `json:"loaded"` // false: the period itself is missing (a gap)
	Products   []ProductShare `json:"products,omitempty"`
	Brands     []string       `json:"brands,omitempty"`
	Categories []string       `json:"categories,omitempty"`
}

// TermHistory is one term across every period of the dataset.
type TermHistory struct {
	Term   string         `json:"term"`
	Found  bool           `json:"found"`
	Points []HistoryPoint `json:"points"`
}

// TermHistories returns each term's rank and top products for every period from the first
// loaded to the latest; missing periods appear with Loaded false, never as rank 0.
func (w *Warehouse) TermHistories(ctx context.Context, d *Dataset, terms []string) ([]TermHistory, error) {
	first, last, err := w.periodRange(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	loaded, err := w.loadedPeriods(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	out := make([]TermHistory, 0, len(terms))
	for _, term := range terms {
		h := TermHistory{Term: term, Points: []HistoryPoint{}}
		byIdx, err := w.termPoints(ctx, d.ID, term)
		if err != nil {
			return nil, err
		}
		h.Found = len(byIdx) > 0
		for idx := first; first >= 0 && idx <= last; idx++ {
			p, ok := byIdx[idx]
			if !ok {
				p = HistoryPoint{}
			}
			p.Start, p.Loaded = periodFromIndex(d.Kind, idx).Start, loaded[idx]
			h.Points = append(h.Points, p)
		}
		out = append(out, h)
	}
	return out, nil
}

func (w *Warehouse) periodRange(ctx context.Context, ds int) (int, int, error) {
	var lo, hi sql.NullInt64
	err := w.db.QueryRowContext(ctx, `select min(period_idx), max(period_idx) from period where dataset_id = ?`, ds).Scan(&lo, &hi)
	if err != nil || !lo.Valid {
		return -1, -2, err
	}
	return int(lo.Int64), int(hi.Int64), nil
}

func (w *Warehouse) loadedPeriods(ctx context.Context, ds int) (map[int]bool, error) {
	rows, err := w.db.QueryContext(ctx, `select period_idx from period where dataset_id = ?`, ds)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[int]bool{}
	for rows.Next() {
		var i int
		if err := rows.Scan(&i); err != nil {
			return nil, err
		}
		m[i] = true
	}
	return m, rows.Err()
}

// termPoints reads one term's rows. The term id is looked up first so the fact scan filters on
// an integer; names are joined from the small dictionaries.
func (w *Warehouse) termPoints(ctx context.Context, ds int, term string) (map[int]HistoryPoint, error) {
	rows, err := w.db.QueryContext(ctx, `select f.period_idx, f.rank,
		a1.asin, a1.title, f.click1, f.conv1, a2.asin, a2.title, f.click2, f.conv2, a3.asin, a3.title, f.click3, f.conv3,
		b1.name, b2.name, b3.name, c1.name, c2.name, c3.name
		from fact f
		left join asin a1 on a1.id = f.asin1 left join asin a2 on a2.id = f.asin2 left join asin a3 on a3.id = f.asin3
		left join brand b1 on b1.id = f.brand1 left join brand b2 on b2.id = f.brand2 left join brand b3 on b3.id = f.brand3
		left join category c1 on c1.id = f.cat1 left join category c2 on c2.id = f.cat2 left join category c3 on c3.id = f.cat3
		where f.dataset_id = ? and f.term_id = (select id from term where dataset_id = ? and term = ?)`, ds, ds, term)
	if err != nil {
		return nil, fmt.Errorf("term history: %w", err)
	}
	defer rows.Close()
	out := map[int]HistoryPoint{}
	for rows.Next() {
		var idx, rank int
		var asin, title [3]sql.NullString
		var click, conv [3]sql.NullInt64
		var brand, cat [3]sql.NullString
		if err := rows.Scan(&idx, &rank, &asin[0], &title[0], &click[0], &conv[0], &asin[1], &title[1], &click[1], &conv[1],
			&asin[2], &title[2], &click[2], &conv[2], &brand[0], &brand[1], &brand[2], &cat[0], &cat[1], &cat[2]); err != nil {
			return nil, err
		}
		p := HistoryPoint{Rank: &rank}
		for i := range 3 {
			if asin[i].Valid {
				p.Products = append(p.Products, ProductShare{ASIN: asin[i].String, Title: title[i].String, ClickShare: share(click[i]), ConversionShare: share(conv[i])})
			}
			if brand[i].Valid {
				p.Brands = append(p.Brands, brand[i].String)
			}
			if cat[i].Valid {
				p.Categories = append(p.Categories, cat[i].String)
			}
		}
		out[idx] = p
	}
	return out, rows.Err()
}

func share(v sql.NullInt64) *float64 {
	if !v.Valid {
		return nil
	}
	f := float64(v.Int64) / 10000
	return &f
}
