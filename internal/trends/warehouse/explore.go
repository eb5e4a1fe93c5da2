package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Windows are the change windows every list offers (periods).
var Windows = []int{1, 4, 13, 52}

// SortKeys are the measures a list can be sorted by.
var SortKeys = map[string]string{
	"rank": "rank", "term": "term", "change1": "ch_1", "change4": "ch_4", "change13": "ch_13", "change52": "ch_52",
	"clickConcentration": "click_conc", "conversionConcentration": "conv_conc", "seasonality": "seasonality",
	"comingUp": "coming_up", "periodsPresent": "periods_present",
}

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
	ClickConc      float64     `json:"clickConcentration"`
	ConvConc       float64     `json:"conversionConcentration"`
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
	ch := fmt.Sprintf("s.ch_%d", q.Window)
	switch q.List {
	case "risers":
		add(ch + " > 0")
	case "fallers":
		add(ch + " < 0")
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
	if q.Brand != "" {
		add(`exists (select 1 from fact f join brand b on b.id in (f.brand1, f.brand2, f.brand3)
			where f.dataset_id = s.dataset_id and f.term_id = s.term_id and f.period_idx = (select max(period_idx) from period where dataset_id = s.dataset_id) and lower(b.name) = lower(?))`, q.Brand)
	}
	if q.Category != "" {
		add(`exists (select 1 from fact f left join category c on c.id in (f.cat1, f.cat2, f.cat3)
			where f.dataset_id = s.dataset_id and f.term_id = s.term_id and f.period_idx = (select max(period_idx) from period where dataset_id = s.dataset_id)
			and (lower(c.name) = lower(?) or lower(f.department) = lower(?)))`, q.Category, q.Category)
	}
	if q.ASIN != "" {
		add(`exists (select 1 from fact f join asin a on a.id in (f.asin1, f.asin2, f.asin3)
			where f.dataset_id = s.dataset_id and f.term_id = s.term_id and f.period_idx = (select max(period_idx) from period where dataset_id = s.dataset_id) and a.asin = ?)`, strings.ToUpper(q.ASIN))
	}
	return strings.Join(conds, " and "), args
}

// orderBy sorts by a whitelisted column, NULLs last, with term_id as the tiebreaker so paging is stable.
func (q ExploreQuery) orderBy() string {
	col, ok := SortKeys[q.Sort]
	if !ok {
		col = "rank"
	}
	dir := "asc"
	if q.Desc {
		dir = "desc"
	}
	return fmt.Sprintf("s.%s %s nulls last, s.term_id", col, dir)
}

const termRowColumns = `s.term, s.rank, s.rank_1, s.rank_4, s.rank_13, s.rank_52, s.ch_1, s.ch_4, s.ch_13, s.ch_52,
	s.periods_present, s.is_new, s.breakout, s.click_conc, s.conv_conc, s.seasonality, s.coming_up, s.spark,
	s.brand1, s.cat1, s.asin1`

// Explore returns one page of terms and the total count.
func (w *Warehouse) Explore(ctx context.Context, d *Dataset, q ExploreQuery) (*Page, error) {
	where, args := q.where(d)
	page := &Page{Rows: []TermRow{}}
	// The total and the page are two scans of term_stats; running them side by side overlaps
	// the page's name lookups (single-threaded point queries) with the count.
	counted := make(chan error, 1)
	go func() {
		err := w.db.QueryRowContext(ctx, `select count(*) from term_stats s where `+where, args...).Scan(&page.Total)
		counted <- err
	}()
	err := w.scanTerms(ctx, where, args, q.orderBy(), q.Limit, q.Offset, func(r TermRow) error {
		page.Rows = append(page.Rows, r)
		return nil
	})
	if cerr := <-counted; cerr != nil && err == nil {
		err = fmt.Errorf("explore: count: %w", cerr)
	}
	return page, err
}

// ExportTerms streams every term the query selects, in order, to fn (CSV export).
func (w *Warehouse) ExportTerms(ctx context.Context, d *Dataset, q ExploreQuery, fn func(TermRow) error) error {
	where, args := q.where(d)
	return w.scanTerms(ctx, where, args, q.orderBy(), -1, 0, fn)
}

// scanTerms reads term_stats rows. Pages (limit >= 0) resolve the top brand, category and ASIN
// ids afterwards, for the page's rows only: joining the dictionaries in SQL made DuckDB build
// hash tables over every ASIN per request. Exports join them in SQL, as they read everything.
func (w *Warehouse) scanTerms(ctx context.Context, where string, args []any, order string, limit, offset int, fn func(TermRow) error) error {
	if limit < 0 {
		return w.scanTermsJoined(ctx, where, args, order, fn)
	}
	rows, err := w.db.QueryContext(ctx, `select `+termRowColumns+` from term_stats s where `+where+` order by `+order+` limit ? offset ?`, append(args, limit, offset)...)
	if err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	var page []TermRow
	var refs [][3]sql.NullInt64
	for rows.Next() {
		r, ref, err := scanTermRow(rows)
		if err != nil {
			rows.Close()
			return err
		}
		page, refs = append(page, r), append(refs, ref)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if err := w.fillTopNames(ctx, page, refs); err != nil {
		return err
	}
	for _, r := range page {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// fillTopNames sets each row's top brand, category and ASIN from the dictionary ids in refs.
func (w *Warehouse) fillTopNames(ctx context.Context, page []TermRow, refs [][3]sql.NullInt64) error {
	ids := map[string]map[int64]bool{"brand": {}, "category": {}, "asin": {}}
	tables := []string{"brand", "category", "asin"}
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
		page[i].TopASIN = names["asin"][refs[i][2].Int64][0]
	}
	return nil
}

func (w *Warehouse) scanTermsJoined(ctx context.Context, where string, args []any, order string, fn func(TermRow) error) error {
	sqlText := `select ` + strings.Replace(termRowColumns, "s.brand1, s.cat1, s.asin1", "b.id, c.id, a.id, b.name, c.name, a.asin", 1) + ` from term_stats s
		left join brand b on b.id = s.brand1 left join category c on c.id = s.cat1 left join asin a on a.id = s.asin1
		where ` + where + ` order by ` + order
	rows, err := w.db.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var brand, cat, asin sql.NullString
		r, _, err := scanTermRow(rows, &brand, &cat, &asin)
		if err != nil {
			return err
		}
		r.TopBrand, r.TopCategory, r.TopASIN = brand.String, cat.String, asin.String
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanTermRow reads termRowColumns (ending with the brand, category and ASIN ids) plus any extra
// destinations the caller appends.
func scanTermRow(rows *sql.Rows, extra ...any) (TermRow, [3]sql.NullInt64, error) {
	var r TermRow
	var ranks [4]sql.NullInt64
	var ch [4]sql.NullFloat64
	var season, coming sql.NullFloat64
	var spark []any
	var ref [3]sql.NullInt64
	dest := append([]any{&r.Term, &r.Rank, &ranks[0], &ranks[1], &ranks[2], &ranks[3], &ch[0], &ch[1], &ch[2], &ch[3],
		&r.PeriodsPresent, &r.New, &r.Breakout, &r.ClickConc, &r.ConvConc, &season, &coming, &spark, &ref[0], &ref[1], &ref[2]}, extra...)
	if err := rows.Scan(dest...); err != nil {
		return r, ref, fmt.Errorf("explore: scan: %w", err)
	}
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
	if season.Valid {
		r.Seasonality = &season.Float64
	}
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
