package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxPage is the most rows one page of a list may hold (OpenFile sets DuckDB up for it).
const MaxPage = 1000

// Windows are the change windows every list offers (periods).
var Windows = []int{1, 4, 13, 52}

// SortKeys are the measures a list can be sorted by, each with the SQL that orders by it over
// the measures' table s. A change over w periods, log2(rank w periods ago / rank now), orders
// as the ratio itself does (log2 is increasing), which the stored ranks give.
var SortKeys = map[string]string{
	"rank": "s.rank", "term": "s.term", "change1": ratioSQL(1), "change4": ratioSQL(4), "change13": ratioSQL(13), "change52": ratioSQL(52),
	"clickConcentration": "s.click_conc", "conversionConcentration": "s.conv_conc", "seasonality": "s.seasonality",
	"comingUp": "s.coming_up", "periodsPresent": "s.periods_present",
}

// ratioSQL is the rank w periods ago over the rank now in the measures' table s (a double;
// NULL when the term was absent then). The changes are not stored: they follow from the ranks
// (changeSQL), and writing four more doubles per term cost ~0.3 s of a 3M-term import.
func ratioSQL(w int) string { return fmt.Sprintf("s.rank_%d / s.rank", w) }

// changeSQL is the change over w periods as the measures define it (stats.go), computed the
// same way as the measures statement computes it, so a stored and a computed value agree.
func changeSQL(w int) string { return "log2(" + ratioSQL(w) + ")" }

// Lists are the named selections: movers, new terms, breakouts and coming-up terms.
var Lists = []string{"all", "risers", "fallers", "new", "breakouts", "coming-up"}

// ExploreQuery selects and orders terms of a dataset's latest period. The handler validates it.
type ExploreQuery struct {
	Search     string // substring (or prefix) of the term, case-insensitive
	Prefix     bool
	List       string // one of Lists
	Window     int    // for risers and fallers
	MinRank    int
	MaxRank    int
	Category   string
	Brand      string
	ASIN       string
	MinPeriods int
	Sort       string // a key of SortKeys
	Desc       bool
	Limit      int
	Offset     int
	// At is a day of the period whose measures are asked for (zero: the latest period).
	At time.Time

	// table and period are where the measures are read (term_stats and the latest period,
	// unless a past period's are asked for: past.go).
	table  string
	period int
	// asinID is ASIN's id in the dictionary once withASINID found it (-1: no such product).
	asinID *int
}

// source is the table the query reads the measures from.
func (q ExploreQuery) source() string {
	if q.table == "" {
		return "term_stats"
	}
	return q.table
}

// periodOf is the SQL for the index of the period the measures are of, and its arguments.
func (q ExploreQuery) periodOf(d *Dataset) (string, []any) {
	if q.table == "" {
		return "(select max(period_idx) from period where dataset_id = ?)", []any{d.ID}
	}
	return strconv.Itoa(q.period), nil
}

// TermRow is one term with every measure, as lists show it.
type TermRow struct {
	Term           string      `json:"term"`
	Rank           int         `json:"rank"`
	Ranks          [4]*int     `json:"ranksAgo"` // rank 1, 4, 13, 52 periods ago
	Changes        [4]*float64 `json:"changes"`  // log2 change over 1, 4, 13, 52 periods
	PeriodsPresent int         `json:"periodsPresent"`
	New            bool        `json:"new"`
	Breakout       bool        `json:"breakout"`
	ClickConc      *float64    `json:"clickConcentration"`      // nil: a blank share, or no product
	ConvConc       *float64    `json:"conversionConcentration"` // likewise
	Seasonality    *float64    `json:"seasonality"`
	ComingUp       *float64    `json:"comingUp"`
	Spark          []*int      `json:"spark"`
	TopBrand       string      `json:"topBrand,omitempty"`
	TopCategory    string      `json:"topCategory,omitempty"`
	TopASIN        string      `json:"topAsin,omitempty"`
}

// Page is one page of a list and the total it pages over.
type Page struct {
	Total int       `json:"total"`
	Rows  []TermRow `json:"rows"`
	// NewCompared is, for the list of new terms, how many earlier periods were compared.
	NewCompared int `json:"newComparedPeriods,omitempty"`
}

// where builds the filter; every value is a parameter.
func (q ExploreQuery) where(d *Dataset) (string, []any) {
	conds, args := []string{"s.dataset_id = ?"}, []any{d.ID}
	add := func(c string, a ...any) { conds, args = append(conds, c), append(args, a...) }
	if q.Search != "" {
		// contains/starts_with match the text literally (no wildcards to escape) and are about
		// twice as fast as LIKE with an ESCAPE clause over 3M terms; lowering every term costs
		// as much again, so it is skipped when the dataset's terms are all lowercase.
		term := "lower(s.term)"
		if d.LowercaseTerms {
			term = "s.term"
		}
		if q.Prefix {
			add(`starts_with(`+term+`, ?)`, strings.ToLower(q.Search))
		} else {
			add(`contains(`+term+`, ?)`, strings.ToLower(q.Search))
		}
	}
	// A riser's change over the window is above 0: its rank then was worse (higher) than now.
	then := fmt.Sprintf("s.rank_%d", q.Window)
	switch q.List {
	case "risers":
		add(then + " > s.rank")
	case "fallers":
		add(then + " < s.rank")
	case "new":
		add("s.is_new")
	case "breakouts":
		add("s.breakout")
	case "coming-up":
		add("s.coming_up > 0")
	}
	if q.MinRank > 0 {
		add("s.rank >= ?", q.MinRank)
	}
	if q.MaxRank > 0 {
		add("s.rank <= ?", q.MaxRank)
	}
	if q.MinPeriods > 0 {
		add("s.periods_present >= ?", q.MinPeriods)
	}
	// The brand, category and product filters keep the terms whose row of the measures' period
	// matches, found by one uncorrelated scan of that period's facts: as a correlated EXISTS per
	// term, DuckDB joined fact with the dictionaries across every period (a brand filter took
	// 10-12 s on the 3M x 156 set, a category filter ran out of memory).
	inPeriod := func(cond string, a ...any) {
		period, periodArgs := q.periodOf(d)
		add(`s.term_id in (select f.term_id from fact f where f.dataset_id = ? and f.period_idx = `+period+` and (`+cond+`))`,
			append(append([]any{d.ID}, periodArgs...), a...)...)
	}
	if q.Brand != "" {
		brands := `(select id from brand where lower(name) = lower(?))`
		inPeriod(`f.brand1 in `+brands+` or f.brand2 in `+brands+` or f.brand3 in `+brands, q.Brand, q.Brand, q.Brand)
	}
	if q.Category != "" {
		cats := `(select id from category where lower(name) = lower(?))`
		inPeriod(`f.cat1 in `+cats+` or f.cat2 in `+cats+` or f.cat3 in `+cats+` or lower(f.department) = lower(?)`,
			q.Category, q.Category, q.Category, q.Category)
	}
	switch {
	case q.ASIN != "" && q.asinID != nil:
		inPeriod(`f.asin1 = ? or f.asin2 = ? or f.asin3 = ?`, *q.asinID, *q.asinID, *q.asinID)
	case q.ASIN != "":
		codes := `(select id from asin where asin = ?)`
		inPeriod(`f.asin1 in `+codes+` or f.asin2 in `+codes+` or f.asin3 in `+codes, strings.ToUpper(q.ASIN), strings.ToUpper(q.ASIN), strings.ToUpper(q.ASIN))
	}
	return strings.Join(conds, " and "), args
}

// withASINID finds the ASIN filter's product in the dictionary (through the ASIN index, as
// product pages do), so the filter compares integer ids: matching the code in SQL made DuckDB
// scan every code of the dictionary (15M at 3M terms x 156 weeks) for each such page.
func (w *Warehouse) withASINID(ctx context.Context, q ExploreQuery) (ExploreQuery, error) {
	if q.ASIN == "" {
		return q, nil
	}
	id, _, err := w.asinOf(ctx, strings.ToUpper(q.ASIN))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		id = -1 // never an id: the filter then matches no term, as the code did
	case err != nil:
		return q, fmt.Errorf("explore: product %q: %w", q.ASIN, err)
	}
	q.asinID = &id
	return q, nil
}

// sortKey is the whitelisted column the query sorts by and its direction.
func (q ExploreQuery) sortKey() (col, dir string) {
	col, ok := SortKeys[q.Sort]
	if !ok {
		col = SortKeys["rank"]
	}
	if q.Desc {
		return col, "desc"
	}
	return col, "asc"
}

// orderBy sorts by the sort key, NULLs last, with term_id as the tiebreaker so paging is stable.
func (q ExploreQuery) orderBy() string {
	col, dir := q.sortKey()
	return fmt.Sprintf("%s %s nulls last, s.term_id", col, dir)
}

var termRowColumns = `s.term, s.rank, s.rank_1, s.rank_4, s.rank_13, s.rank_52, ` + changeSQL(1) + `, ` + changeSQL(4) + `, ` + changeSQL(13) + `, ` + changeSQL(52) + `,
	s.periods_present, s.is_new, s.breakout, s.click_conc, s.conv_conc, s.seasonality, s.coming_up, s.spark,
	s.brand1, s.cat1, s.asin1_code`

// Explore returns one page of terms and the total count, of the latest period or the one
// q.At names (ErrNoPeriod when none is loaded).
func (w *Warehouse) Explore(ctx context.Context, d *Dataset, q ExploreQuery) (page *Page, err error) {
	if q, err = w.withASINID(ctx, q); err != nil {
		return nil, err
	}
	if q.At.IsZero() {
		return w.explore(ctx, w.db, d, q, -1)
	}
	idx, past, err := w.resolveAt(ctx, w.db, d, q.At)
	if err != nil || !past {
		if err != nil {
			return nil, err
		}
		return w.explore(ctx, w.db, d, q, idx)
	}
	err = w.withPastMeasures(ctx, d, idx, func(tx *sql.Tx, table string) error {
		q.table, q.period = table, idx
		page, err = w.explore(ctx, tx, d, q, idx)
		return err
	})
	return page, err
}

// explore answers Explore from the measures q reads, of period idx (-1: the latest).
func (w *Warehouse) explore(ctx context.Context, db reader, d *Dataset, q ExploreQuery, idx int) (*Page, error) {
	query, args := q.pageSQL(d)
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("explore: %w", err)
	}
	page := &Page{Rows: []TermRow{}}
	var refs [][2]sql.NullInt64
	for rows.Next() {
		r, ref, err := scanTermRow(rows, &page.Total)
		if err != nil {
			rows.Close()
			return nil, err
		}
		page.Rows, refs = append(page.Rows, r), append(refs, ref)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if q.List == "new" {
		if page.NewCompared, err = newCompared(ctx, db, d.ID, idx); err != nil {
			return nil, err
		}
	}
	// An empty first page means nothing matched; past the end, the total needs its own count.
	if len(page.Rows) == 0 && (q.Offset > 0 || q.Limit <= 0) {
		where, args := q.where(d)
		if err := db.QueryRowContext(ctx, `select count(*) from `+q.source()+` s where `+where, args...).Scan(&page.Total); err != nil {
			return nil, fmt.Errorf("explore: count: %w", err)
		}
	}
	return page, w.fillTopNames(ctx, page.Rows, refs)
}

// pageSQL is the statement that reads one page of the list and its total, with its arguments.
func (q ExploreQuery) pageSQL(d *Dataset) (string, []any) {
	where, args := q.where(d)
	col, dir := q.sortKey()
	// One scan of term_stats gives the page and the total: the matching rows' row ids, term ids
	// and sort keys are kept once, counted, and the page picked from them; the page's rows are
	// then fetched by row id, which reads only the vectors holding them (once the page's row ids
	// reach the scan as a filter: pageFilterSetting). Counting and paging in two scans side by
	// side was up to 1.5x slower at p95 over 3M terms (they compete for the two cores); fetching
	// the page's rows by term id read every row group (docs/trends-engine.md).
	return fmt.Sprintf(`with m as materialized (select s.rowid as r, s.term_id, %[1]s as k from %[6]s s where %[2]s),
		page as (select r from m order by k %[3]s nulls last, term_id limit ? offset ?)
		select %[4]s, (select count(*) from m) from %[6]s s
		where s.rowid in (select r from page)
		order by %[5]s`, col, where, dir, termRowColumns, q.orderBy(), q.source()), append(args, q.Limit, q.Offset)
}

// ExportTerms streams every term the query selects, in order, to fn (CSV export). It joins the
// top brand, category and ASIN names in SQL, as it reads everything.
func (w *Warehouse) ExportTerms(ctx context.Context, d *Dataset, q ExploreQuery, fn func(TermRow) error) error {
	q, err := w.withASINID(ctx, q)
	if err != nil {
		return err
	}
	if q.At.IsZero() {
		return w.exportTerms(ctx, w.db, d, q, fn)
	}
	idx, past, err := w.resolveAt(ctx, w.db, d, q.At)
	if err != nil || !past {
		if err != nil {
			return err
		}
		return w.exportTerms(ctx, w.db, d, q, fn)
	}
	return w.withFreshPastMeasures(ctx, d, idx, func(tx *sql.Tx, table string) error {
		q.table, q.period = table, idx
		return w.exportTerms(ctx, tx, d, q, fn)
	})
}

func (w *Warehouse) exportTerms(ctx context.Context, db reader, d *Dataset, q ExploreQuery, fn func(TermRow) error) error {
	where, args := q.where(d)
	// The ASIN's code comes from the dictionary here, not term_stats' copy of it (a test
	// compares the two).
	sqlText := `select ` + strings.Replace(termRowColumns, "s.brand1, s.cat1, s.asin1_code", "b.id, c.id, a.asin, b.name, c.name", 1) + ` from ` + q.source() + ` s
		left join brand b on b.id = s.brand1 left join category c on c.id = s.cat1 left join asin a on a.id = s.asin1
		where ` + where + ` order by ` + q.orderBy()
	rows, err := db.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var brand, cat sql.NullString
		r, _, err := scanTermRow(rows, &brand, &cat)
		if err != nil {
			return err
		}
		r.TopBrand, r.TopCategory = brand.String, cat.String
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// fillTopNames sets each row's top brand and category from the dictionary ids in refs (the
// ASIN's code is stored with the row).
func (w *Warehouse) fillTopNames(ctx context.Context, page []TermRow, refs [][2]sql.NullInt64) error {
	ids := map[string]map[int64]bool{"brand": {}, "category": {}}
	tables := []string{"brand", "category"}
	for _, ref := range refs {
		for k, table := range tables {
			if ref[k].Valid {
				ids[table][ref[k].Int64] = true
			}
		}
	}
	names, err := w.dictionaryNames(ctx, ids)
	if err != nil {
		return err
	}
	for i := range page {
		page[i].TopBrand = names["brand"][refs[i][0].Int64][0]
		page[i].TopCategory = names["category"][refs[i][1].Int64][0]
	}
	return nil
}

// scanTermRow reads termRowColumns (ending with the brand and category ids and the top ASIN's
// code) plus any extra destinations the caller appends; it returns the two ids.
func scanTermRow(rows *sql.Rows, extra ...any) (TermRow, [2]sql.NullInt64, error) {
	var r TermRow
	var ranks [4]sql.NullInt64
	var ch [4]sql.NullFloat64
	var season, coming, click, conv sql.NullFloat64
	var spark []any
	var ref [2]sql.NullInt64
	var asinCode sql.NullString
	dest := append([]any{&r.Term, &r.Rank, &ranks[0], &ranks[1], &ranks[2], &ranks[3], &ch[0], &ch[1], &ch[2], &ch[3],
		&r.PeriodsPresent, &r.New, &r.Breakout, &click, &conv, &season, &coming, &spark, &ref[0], &ref[1], &asinCode}, extra...)
	if err := rows.Scan(dest...); err != nil {
		return r, ref, fmt.Errorf("explore: scan: %w", err)
	}
	r.TopASIN = asinCode.String
	for i := range 4 {
		if ranks[i].Valid {
			v := int(ranks[i].Int64)
			r.Ranks[i] = &v
		}
		if ch[i].Valid {
			v := ch[i].Float64
			r.Changes[i] = &v
		}
	}
	r.ClickConc, r.ConvConc, r.Seasonality = nullFloat(click), nullFloat(conv), nullFloat(season)
	if coming.Valid {
		r.ComingUp = &coming.Float64
	}
	r.Spark = make([]*int, len(spark))
	for i, v := range spark {
		if n, ok := v.(int32); ok {
			x := int(n)
			r.Spark[i] = &x
		}
	}
	return r, ref, nil
}

func nullFloat(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	return &v.Float64
}
