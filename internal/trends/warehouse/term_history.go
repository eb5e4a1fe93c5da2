package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
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
	points, err := w.termPoints(ctx, d.ID, terms)
	if err != nil {
		return nil, err
	}
	out := make([]TermHistory, 0, len(terms))
	for _, term := range terms {
		h := TermHistory{Term: term, Points: []HistoryPoint{}}
		byIdx := points[term]
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

// termPoints reads one term's rows. The fact rows are read alone (a filtered scan), and the
// few dictionary ids they name are resolved afterwards: joining the whole dictionaries made
// DuckDB build hash tables over every ASIN on each request.
func (w *Warehouse) termPoints(ctx context.Context, ds int, terms []string) (map[string]map[int]HistoryPoint, error) {
	// The ids first (a small lookup), then one scan of the facts filtered on integer ids listed
	// inline: a join against the term table here made DuckDB hash-join per request.
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(terms)), ", ")
	args := []any{ds}
	for _, t := range terms {
		args = append(args, t)
	}
	idRows, err := w.db.QueryContext(ctx, `select id, term from term where dataset_id = ? and term in (`+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("term history: %w", err)
	}
	termNames := map[int64]string{}
	var idList []string
	for idRows.Next() {
		var id int64
		var term string
		if err := idRows.Scan(&id, &term); err != nil {
			idRows.Close()
			return nil, err
		}
		termNames[id] = term
		idList = append(idList, fmt.Sprint(id))
	}
	idRows.Close()
	if len(idList) == 0 {
		return map[string]map[int]HistoryPoint{}, nil
	}
	rows, err := w.db.QueryContext(ctx, `select term_id, period_idx, rank, asin1, asin2, asin3, click1, click2, click3, conv1, conv2, conv3,
		brand1, brand2, brand3, cat1, cat2, cat3 from fact where dataset_id = ? and term_id in (`+strings.Join(idList, ",")+`)`, ds)
	if err != nil {
		return nil, fmt.Errorf("term history: %w", err)
	}
	type raw struct {
		termID           int64
		idx, rank        int
		asin, brand, cat [3]sql.NullInt64
		click, conv      [3]sql.NullInt64
	}
	var all []raw
	ids := map[string]map[int64]bool{"asin": {}, "brand": {}, "category": {}}
	for rows.Next() {
		var r raw
		if err := rows.Scan(&r.termID, &r.idx, &r.rank, &r.asin[0], &r.asin[1], &r.asin[2], &r.click[0], &r.click[1], &r.click[2], &r.conv[0], &r.conv[1], &r.conv[2],
			&r.brand[0], &r.brand[1], &r.brand[2], &r.cat[0], &r.cat[1], &r.cat[2]); err != nil {
			rows.Close()
			return nil, err
		}
		for k := range 3 {
			for table, v := range map[string]sql.NullInt64{"asin": r.asin[k], "brand": r.brand[k], "category": r.cat[k]} {
				if v.Valid {
					ids[table][v.Int64] = true
				}
			}
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	names, err := w.dictionaryNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]map[int]HistoryPoint, len(terms))
	for _, r := range all {
		rank := r.rank
		p := HistoryPoint{Rank: &rank}
		for k := range 3 {
			if r.asin[k].Valid {
				n := names["asin"][r.asin[k].Int64]
				p.Products = append(p.Products, ProductShare{ASIN: n[0], Title: n[1], ClickShare: share(r.click[k]), ConversionShare: share(r.conv[k])})
			}
			if r.brand[k].Valid {
				p.Brands = append(p.Brands, names["brand"][r.brand[k].Int64][0])
			}
			if r.cat[k].Valid {
				p.Categories = append(p.Categories, names["category"][r.cat[k].Int64][0])
			}
		}
		term := termNames[r.termID]
		if out[term] == nil {
			out[term] = map[int]HistoryPoint{}
		}
		out[term][r.idx] = p
	}
	return out, nil
}

// dictionaryNames resolves ids per dictionary table to [name, title].
func (w *Warehouse) dictionaryNames(ctx context.Context, ids map[string]map[int64]bool) (map[string]map[int64][2]string, error) {
	cols := map[string]string{"asin": "asin, title", "brand": "name, null", "category": "name, null"}
	out := map[string]map[int64][2]string{}
	for table, set := range ids {
		out[table] = map[int64][2]string{}
		if len(set) == 0 {
			continue
		}
		list := make([]string, 0, len(set))
		for id := range set {
			list = append(list, fmt.Sprint(id))
		}
		// The ids are integers read from our own tables, so listing them inline is safe.
		rows, err := w.db.QueryContext(ctx, `select id, `+cols[table]+` from `+table+` where id in (`+strings.Join(list, ",")+`)`)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var name string
			var title sql.NullString
			if err := rows.Scan(&id, &name, &title); err != nil {
				rows.Close()
				return nil, err
			}
			out[table][id] = [2]string{name, title.String}
		}
		rows.Close()
	}
	return out, nil
}

func share(v sql.NullInt64) *float64 {
	if !v.Valid {
		return nil
	}
	f := float64(v.Int64) / 10000
	return &f
}
