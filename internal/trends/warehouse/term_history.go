package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// MaxCompare is how many terms one history request may hold.
const MaxCompare = 10

// ProductShare is one of a term's top-3 clicked products in one period.
type ProductShare struct {
	ASIN            string   `json:"asin"`
	Title           string   `json:"title,omitempty"`
	ClickShare      *float64 `json:"clickShare"`
	ConversionShare *float64 `json:"conversionShare"`
	CloserRatio     *float64 `json:"closerRatio"` // closerRatio
}

// HistoryPoint is a term in one period; Rank is nil when the term is absent or the period missing.
type HistoryPoint struct {
	Start      time.Time      `json:"start"`
	Rank       *int           `json:"rank"`
	Loaded     bool           `json:"loaded"` // false: the period itself is missing (a gap)
	Products   []ProductShare `json:"products,omitempty"`
	Brands     []string       `json:"brands,omitempty"`
	Categories []string       `json:"categories,omitempty"`
	// The sums of the top-3 shares, nil when unknown (concentrationSQL's rule).
	ClickConc *float64 `json:"clickConcentration"`
	ConvConc  *float64 `json:"conversionConcentration"`
}

// TermHistory is one term across every period of the dataset.
type TermHistory struct {
	Term   string         `json:"term"`
	Found  bool           `json:"found"`
	Points []HistoryPoint `json:"points"`
	// Measures are the term's measures at the period asked for (the latest by default); nil
	// when the term is not in that period.
	Measures *TermMeasures `json:"measures"`
}

// TermHistories returns each term's rank and top products for every period from the first
// loaded to the latest, with its measures at the latest; see TermHistoriesAt.
func (w *Warehouse) TermHistories(ctx context.Context, d *Dataset, terms []string) ([]TermHistory, error) {
	return w.TermHistoriesAt(ctx, d, terms, time.Time{})
}

// TermHistoriesAt returns each term's rank and top products for every period from the first
// loaded to the one containing day at (zero: the latest; ErrNoPeriod when none is loaded),
// and its measures as they stood then; missing periods appear with Loaded false, never as
// rank 0. It reads the periods and rows in one transaction, so a compaction or import
// committing meanwhile cannot mix two snapshots (names, which never change once given, are
// read outside it).
func (w *Warehouse) TermHistoriesAt(ctx context.Context, d *Dataset, terms []string, at time.Time) ([]TermHistory, error) {
	if out, ok, err := w.historiesFromFile(ctx, d, terms, at); ok {
		return out, err
	}
	return w.termHistoriesDB(ctx, d, terms, at)
}

// termHistoriesDB is TermHistoriesAt read from DuckDB: the reference the history file is
// checked against, and the answer whenever the file cannot give it.
func (w *Warehouse) termHistoriesDB(ctx context.Context, d *Dataset, terms []string, at time.Time) ([]TermHistory, error) {
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	periods, deepest, termNames, err := historyBasis(ctx, tx, d.ID, terms)
	if err != nil {
		return nil, fmt.Errorf("term history: %w", err)
	}
	points, err := w.termPoints(ctx, tx, d.ID, termNames, periods)
	if err != nil {
		return nil, err
	}
	return histories(d, terms, at, periods, deepest, points)
}

// histories lays the terms' points (by term, then period index) over the loaded periods
// (their indexes are the keys of periods) up to at, with the measures at it.
func histories(d *Dataset, terms []string, at time.Time, periods map[int]bool, deepest map[int]int, points map[string]map[int]HistoryPoint) ([]TermHistory, error) {
	first, last := -1, -2
	for idx := range periods {
		if first < 0 || idx < first {
			first = idx
		}
		last = max(last, idx)
	}
	if !at.IsZero() {
		last = periodIndex(report.Period{Kind: d.Kind, Start: at})
		if _, ok := periods[last]; !ok {
			return nil, ErrNoPeriod
		}
	}
	out := make([]TermHistory, 0, len(terms))
	for _, term := range terms {
		h := TermHistory{Term: term, Points: []HistoryPoint{}}
		byIdx := points[term]
		h.Found = len(byIdx) > 0
		for idx := first; first >= 0 && idx <= last; idx++ {
			p := byIdx[idx]
			_, p.Loaded = periods[idx]
			p.Start = periodFromIndex(d.Kind, idx).Start
			h.Points = append(h.Points, p)
		}
		if _, ok := byIdx[last]; ok {
			h.Measures = measuresAt(d.Kind, byIdx, deepest, last)
		}
		out = append(out, h)
	}
	return out, nil
}

// snapshot starts a read transaction (the caller rolls it back) and reads the dataset's period
// states in it, so what follows sees the copy and fact as of one moment.
func (w *Warehouse) snapshot(ctx context.Context, ds int) (*sql.Tx, map[int]bool, error) {
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return nil, nil, err
	}
	periods, err := periodStates(ctx, tx, ds)
	if err != nil {
		tx.Rollback()
		return nil, nil, err
	}
	return tx, periods, nil
}

// periodStates maps each loaded period to whether the term-ordered copy holds its current rows
// (compact.go).
func periodStates(ctx context.Context, tx *sql.Tx, ds int) (map[int]bool, error) {
	periods, _, err := periodStatesAndTermIDs(ctx, tx, ds, nil)
	return periods, err
}

// periodStatesAndTermIDs reads the period states (periodStates) and the ids of those of the
// terms the dataset has in one statement (term_stats; the dictionary after it only for terms
// term_stats lacks), matching the period records with the copy's index here as copyHolds does
// in SQL. With the transaction's begin and end, two statements (a left join, then the ids)
// took 2.7-3.4 / 5.5-6.4 ms (p50 / p95) on the 3M x 156 set, one 2.0-2.4 / 3.7-4.5.
func periodStatesAndTermIDs(ctx context.Context, tx *sql.Tx, ds int, terms []string) (map[int]bool, map[int64]string, error) {
	periods, _, names, err := historyBasis(ctx, tx, ds, terms)
	return periods, names, err
}

// historyBasis is periodStatesAndTermIDs with each period's deepest rank (for "new").
func historyBasis(ctx context.Context, tx *sql.Tx, ds int, terms []string) (map[int]bool, map[int]int, map[int64]string, error) {
	q := `select 0, period_idx, imported_at, null, deepest_rank from period where dataset_id = ?
		union all select 1, period_idx, imported_at, null, null from ` + copyDB + `.compacted where dataset_id = ?`
	args := []any{ds, ds}
	for _, t := range terms {
		q += ` union all ` + termStatsIDQuery
		args = append(args, ds, t)
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	loaded, copied := map[int]time.Time{}, map[int]time.Time{}
	names, deepest := map[int64]string{}, map[int]int{}
	for rows.Next() {
		var kind int
		var id int64
		var at sql.NullTime
		var term sql.NullString
		var deep sql.NullInt64
		if err := rows.Scan(&kind, &id, &at, &term, &deep); err != nil {
			return nil, nil, nil, err
		}
		switch kind {
		case 0:
			loaded[int(id)], deepest[int(id)] = at.Time, int(deep.Int64)
		case 1:
			copied[int(id)] = at.Time
		default:
			if slices.Contains(terms, term.String) { // not a term that only shares a hash
				names[id] = term.String
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	periods := make(map[int]bool, len(loaded))
	for idx, at := range loaded {
		c, ok := copied[idx]
		periods[idx] = ok && c.Equal(at)
	}
	if err := lookupMissingTermIDs(ctx, tx, ds, terms, names); err != nil {
		return nil, nil, nil, err
	}
	return periods, deepest, names, nil
}

// termStatsIDQuery finds the id of one of term_stats' terms by its hash in term_keys, sorted
// by it, and reads its term from term_stats, in term id order, so the caller can drop a term
// that only shares the hash; its arguments are the dataset and the term. Each table is read a
// few vectors (zone maps: term_keys by hash, then term_stats by the ids found, a filter DuckDB
// passes from the join to the scan). Comparing the term in the statement instead made DuckDB
// scan every term of term_stats: 11.5 ms against 1.5-1.7 ms on the 3M set. The leading 2 tells
// its rows apart in periodStatesAndTermIDs.
var termStatsIDQuery = `select 2, s.term_id, null, s.term, null from term_stats s join term_keys k on k.dataset_id = s.dataset_id and k.term_id = s.term_id
	where s.dataset_id = ? and k.term_hash = ` + termHash("?")

// historySQL reads the terms' rows from the term-ordered copy (only periods it holds) and from
// fact (only periods it does not hold yet). Every value listed inline is an integer from our own
// tables.
func historySQL(ds int, termIDs []string, periods map[int]bool) string {
	var inCopy, fresh []string
	for idx, c := range periods {
		if c {
			inCopy = append(inCopy, strconv.Itoa(idx))
		} else {
			fresh = append(fresh, strconv.Itoa(idx))
		}
	}
	ids := strings.Join(termIDs, ",")
	var parts []string
	if len(inCopy) > 0 {
		parts = append(parts, fmt.Sprintf(`select %s from %s where term_id in (%s) and period_idx in (%s)`,
			factColumns, byTermTable(ds), ids, strings.Join(inCopy, ",")))
	}
	if len(fresh) > 0 {
		parts = append(parts, fmt.Sprintf(`select %s from fact where dataset_id = %d and period_idx in (%s) and term_id in (%s)`,
			factColumns, ds, strings.Join(fresh, ","), ids))
	}
	return strings.Join(parts, " union all ")
}

// termPoints reads the rows of the terms whose ids it is given (periodStatesAndTermIDs): the
// rows are read alone, filtered on integer ids listed inline, and the few dictionary ids they
// name are resolved afterwards: joining the dictionaries made DuckDB build hash tables per
// request.
func (w *Warehouse) termPoints(ctx context.Context, tx *sql.Tx, ds int, termNames map[int64]string, periods map[int]bool) (map[string]map[int]HistoryPoint, error) {
	var idList []string
	for id := range termNames {
		idList = append(idList, strconv.FormatInt(id, 10))
	}
	if len(idList) == 0 || len(periods) == 0 {
		return map[string]map[int]HistoryPoint{}, nil
	}
	rows, err := tx.QueryContext(ctx, historySQL(ds, idList, periods))
	if err != nil {
		return nil, fmt.Errorf("term history: %w", err)
	}
	var all []factRow
	ids := map[string]map[int64]bool{"asin": {}, "brand": {}, "category": {}}
	for rows.Next() {
		var r factRow
		if err := r.scan(rows); err != nil {
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
	products, err := w.termProductNames(ctx, ds, idList, ids["asin"])
	if err != nil {
		return nil, fmt.Errorf("term history: %w", err)
	}
	names, err := w.dictionaryNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id, v := range products {
		names["asin"][id] = v
	}
	return pointsOf(all, names, termNames), nil
}

// pointsOf turns the terms' rows into points by term and period index, naming products,
// brands and categories from names (by dictionary, then id) and terms from termNames.
func pointsOf(all []factRow, names map[string]map[int64][2]string, termNames map[int64]string) map[string]map[int]HistoryPoint {
	out := make(map[string]map[int]HistoryPoint, len(termNames))
	for _, r := range all {
		rank := r.rank
		p := HistoryPoint{Rank: &rank, ClickConc: concentration(r, r.click), ConvConc: concentration(r, r.conv),
			Products: sized[ProductShare](r.asin), Brands: sized[string](r.brand), Categories: sized[string](r.cat)}
		for k := range 3 {
			if r.asin[k].Valid {
				n := names["asin"][r.asin[k].Int64]
				p.Products = append(p.Products, ProductShare{ASIN: n[0], Title: n[1], ClickShare: share(r.click[k]), ConversionShare: share(r.conv[k]),
					CloserRatio: closerRatio(r.click[k], r.conv[k])})
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
	return out
}

// sized is an empty slice with room for one element per non-null id, nil when there is none
// (a point without products has always had nil slices).
func sized[T any](ids [3]sql.NullInt64) []T {
	n := 0
	for _, v := range ids {
		if v.Valid {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// lookupMissingTermIDs adds to names (term ids to terms, found in term_stats) the ids of the
// terms missing from it, from the term dictionary. term_keys holds every term of the latest
// period, sorted by key, so the dictionary is asked only for terms absent from the latest
// period or from the dataset.
func lookupMissingTermIDs(ctx context.Context, tx *sql.Tx, ds int, terms []string, names map[int64]string) error {
	found := map[string]bool{}
	for _, t := range names {
		found[t] = true
	}
	args := []any{ds}
	for _, t := range terms {
		if !found[t] {
			args = append(args, t)
		}
	}
	if len(args) == 1 {
		return nil
	}
	q := `select id, term from term where dataset_id = ? and term in (` + strings.TrimSuffix(strings.Repeat("?, ", len(args)-1), ", ") + `)`
	return scanTermIDs(ctx, tx, names, q, args...)
}

// scanTermIDs adds the (id, term) rows q returns to names.
func scanTermIDs(ctx context.Context, tx *sql.Tx, names map[int64]string, q string, args ...any) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var term string
		if err := rows.Scan(&id, &term); err != nil {
			return err
		}
		names[id] = term
	}
	return rows.Err()
}

// factRow is one row of factColumns.
type factRow struct {
	termID           int64
	idx, rank        int
	asin, brand, cat [3]sql.NullInt64
	click, conv      [3]sql.NullInt64
}

func (r *factRow) scan(rows *sql.Rows) error {
	return rows.Scan(&r.termID, &r.idx, &r.rank, &r.asin[0], &r.asin[1], &r.asin[2], &r.click[0], &r.click[1], &r.click[2], &r.conv[0], &r.conv[1], &r.conv[2],
		&r.brand[0], &r.brand[1], &r.brand[2], &r.cat[0], &r.cat[1], &r.cat[2])
}

// slot is the slot (0..2) of product or brand id in the row's top 3, -1 when it is in none.
func (r *factRow) slot(column string, id int) int {
	ids := r.asin
	if column == "brand" {
		ids = r.brand
	}
	for k, v := range ids {
		if v.Valid && v.Int64 == int64(id) {
			return k
		}
	}
	return -1
}

// dictionaryNames resolves ids per dictionary (a key of dictionaries) to [name, title], from the in-process cache
// where it can: dictionary rows are written once and never change, so a cached name is never
// stale.
func (w *Warehouse) dictionaryNames(ctx context.Context, ids map[string]map[int64]bool) (map[string]map[int64][2]string, error) {
	out := map[string]map[int64][2]string{}
	var points []string
	for kind, set := range ids {
		out[kind] = map[int64][2]string{}
		d := dictionaries[kind]
		for id := range set {
			if v, ok := w.cachedName(kind, id); ok {
				out[kind][id] = v
				continue
			}
			// One point query per id, glued with UNION ALL: each is answered from one row group
			// by the zone maps on id, while "id in (...)" scanned the whole 15M-row ASIN table
			// (150 ms against 24 ms for 100 ids at full size). The ids are integers read from
			// our own tables, so listing them inline is safe.
			points = append(points, fmt.Sprintf(`select '%s', id, %s from %s where id = %d`, kind, d.columns, d.table, id))
		}
	}
	if len(points) == 0 {
		return out, nil
	}
	rows, err := w.db.QueryContext(ctx, strings.Join(points, " union all "))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var kind, name string
		var id int64
		var title sql.NullString
		if err := rows.Scan(&kind, &id, &name, &title); err != nil {
			return nil, err
		}
		v := [2]string{name, title.String}
		out[kind][id] = v
		w.names.Add(nameKey{kind, id}, v)
	}
	return out, rows.Err()
}

// dictionaries are what dictionaryNames looks up: a table and the name and title it reads.
var dictionaries = map[string]struct{ table, columns string }{
	"asin":     {"asin", "asin, title"},
	"brand":    {"brand", "name, null"},
	"category": {"category", "name, null"},
}

// cachedName returns a cached name.
func (w *Warehouse) cachedName(kind string, id int64) ([2]string, bool) {
	return w.names.Get(nameKey{kind, id})
}

// nameKey identifies a dictionary row in the names cache.
type nameKey struct {
	table string
	id    int64
}

func share(v sql.NullInt64) *float64 {
	if !v.Valid {
		return nil
	}
	f := float64(v.Int64) / 10000
	return &f
}

// closerRatio is a product's conversion share over its click share (trends.md): how much more
// (above 1) or less of the term's purchases it wins than of its clicks. nil when either share
// is blank or the click share is 0; 0 when the conversion share is 0.
func closerRatio(click, conv sql.NullInt64) *float64 {
	if !click.Valid || !conv.Valid || click.Int64 == 0 {
		return nil
	}
	r := float64(conv.Int64) / float64(click.Int64)
	return &r
}
