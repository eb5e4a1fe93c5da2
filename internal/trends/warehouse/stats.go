package warehouse

import (
	"context"
	"database/sql"
	"fmt"
)

// Measures, defined once (trends.md) and computed here at import:
//
//	ch_w        log2(rank w periods ago / rank now): positive = rising; NULL when either is missing
//	            (a gap or a term absent then is not rank 0).
//	is_new      present now, absent from each of the previous 4 periods, all 4 of them loaded, and
//	            ranked above (better than) the deepest rank those periods covered — so a term that
//	            only looks new because an older file held fewer terms is not called new.
//	breakout    new, or risen at least 2x over 4 periods (ch_4 >= 1) and better in each of the
//	            last 3 periods.
//	click_conc  sum of the top-3 click shares (0..1); conv_conc likewise for conversion shares.
//	seasonality correlation of log rank with the same period a year earlier over the last year
//	            (needs >= 8 pairs); near 1 = the term repeats its yearly pattern.
//	coming_up   log2(rank a year ago / best rank 4–8 periods after that): how much it rose in the
//	            coming weeks last year (weekly datasets).
//	spark       the last 13 periods' ranks, NULL for periods where the term is absent or missing.
const (
	NewLookback    = 4
	BreakoutRise   = 1.0 // log2 units: a doubling
	BreakoutStreak = 3
	SparkPeriods   = 13
	MinSeasonPairs = 8
	ComingUpFrom   = 4
	ComingUpTo     = 8
	yearOfPeriods  = 52
)

func rebuildStats(ctx context.Context, tx *sql.Tx, ds int) error {
	if _, err := tx.ExecContext(ctx, `delete from term_stats where dataset_id = ?`, ds); err != nil {
		return err
	}
	var latest sql.NullInt64
	if err := tx.QueryRowContext(ctx, `select max(period_idx) from period where dataset_id = ?`, ds).Scan(&latest); err != nil || !latest.Valid {
		return err
	}
	L := latest.Int64
	q := fmt.Sprintf(`insert into term_stats
	with prev as (
		select count(*) as n, min(deepest_rank) as deepest from period
		where dataset_id = $1 and period_idx between $2 - %[1]d and $2 - 1),
	recent as (
		select term_id,
			max(rank) filter (where period_idx = $2 - 1) as r1, max(rank) filter (where period_idx = $2 - 2) as r2,
			max(rank) filter (where period_idx = $2 - 3) as r3, max(rank) filter (where period_idx = $2 - 4) as r4,
			max(rank) filter (where period_idx = $2 - 13) as r13, max(rank) filter (where period_idx = $2 - 52) as r52,
			count(*) filter (where period_idx between $2 - %[1]d and $2 - 1) as prev_present,
			map_from_entries(list(struct_pack(k := period_idx, v := rank)) filter (where period_idx > $2 - %[2]d)) as spark_map,
			min(rank) filter (where period_idx between $2 - 52 + %[4]d and $2 - 52 + %[5]d) as best_next_last_year
		from fact where dataset_id = $1 and period_idx >= $2 - 52 group by term_id),
	present as (select term_id, count(*) as n from fact where dataset_id = $1 group by term_id),
	season as (
		select a.term_id, corr(ln(a.rank), ln(b.rank)) as c from fact a
		join fact b on b.dataset_id = a.dataset_id and b.term_id = a.term_id and b.period_idx = a.period_idx - 52
		where a.dataset_id = $1 and a.period_idx > $2 - 52 group by a.term_id having count(*) >= %[3]d)
	select $1, f.term_id, t.term, f.rank, r.r1, r.r4, r.r13, r.r52,
		log2(r.r1 / f.rank), log2(r.r4 / f.rank), log2(r.r13 / f.rank), log2(r.r52 / f.rank),
		p.n,
		coalesce(prev.n = %[1]d and coalesce(r.prev_present, 0) = 0 and f.rank < prev.deepest, false) as is_new,
		coalesce((prev.n = %[1]d and coalesce(r.prev_present, 0) = 0 and f.rank < prev.deepest)
			or (log2(r.r4 / f.rank) >= %[6]f and f.rank < r.r1 and r.r1 < r.r2 and r.r2 < r.r3), false) as breakout,
		(coalesce(f.click1, 0) + coalesce(f.click2, 0) + coalesce(f.click3, 0)) / 10000.0,
		(coalesce(f.conv1, 0) + coalesce(f.conv2, 0) + coalesce(f.conv3, 0)) / 10000.0,
		s.c,
		log2(r.r52 / r.best_next_last_year),
		list_transform(range($2 - %[2]d + 1, $2 + 1), i -> map_extract_value(r.spark_map, i)),
		f.brand1, f.cat1, f.asin1
	from fact f join term t on t.dataset_id = f.dataset_id and t.id = f.term_id
	join present p on p.term_id = f.term_id
	left join recent r on r.term_id = f.term_id
	left join season s on s.term_id = f.term_id
	cross join prev
	where f.dataset_id = $1 and f.period_idx = $2
	order by t.term`, NewLookback, SparkPeriods, MinSeasonPairs, ComingUpFrom, ComingUpTo, BreakoutRise)
	if _, err := tx.ExecContext(ctx, q, ds, L); err != nil {
		return fmt.Errorf("measures: %w", err)
	}
	return materializeOverview(ctx, tx, ds)
}

// OverviewSize is how many terms each overview list keeps.
const OverviewSize = 10

// materializeOverview stores the overview's lists (for both windows it may show) at import.
func materializeOverview(ctx context.Context, tx *sql.Tx, ds int) error {
	for _, t := range []string{"overview_terms", "overview_counts"} {
		if _, err := tx.ExecContext(ctx, `delete from `+t+` where dataset_id = ?`, ds); err != nil {
			return err
		}
	}
	for _, window := range []int{1, 4} {
		for _, l := range OverviewLists(window) {
			where, args := l.Query.where(ds)
			q := fmt.Sprintf(`insert into overview_terms select ?, ?, ?, row_number() over (order by %s), s.term_id
				from term_stats s where %s order by %s limit %d`, l.Query.orderBy(), where, l.Query.orderBy(), OverviewSize)
			if _, err := tx.ExecContext(ctx, q, append([]any{ds, l.Name, window}, args...)...); err != nil {
				return fmt.Errorf("overview %s: %w", l.Name, err)
			}
			count := `insert into overview_counts select ?, ?, ?, count(*) from term_stats s where ` + where
			if _, err := tx.ExecContext(ctx, count, append([]any{ds, l.Name, window}, args...)...); err != nil {
				return fmt.Errorf("overview %s count: %w", l.Name, err)
			}
		}
	}
	return nil
}

// OverviewList is one of the overview's lists and the query that selects it.
type OverviewList struct {
	Name  string
	Query ExploreQuery
}

// OverviewLists are the overview's lists over a change window of 1 or 4 periods.
func OverviewLists(window int) []OverviewList {
	change := fmt.Sprintf("change%d", window)
	return []OverviewList{
		{"risers", ExploreQuery{List: "risers", Window: window, Sort: change, Desc: true}},
		{"fallers", ExploreQuery{List: "fallers", Window: window, Sort: change}},
		{"new", ExploreQuery{List: "new", Window: window, Sort: "rank"}},
		{"breakouts", ExploreQuery{List: "breakouts", Window: window, Sort: "change4", Desc: true}},
		{"comingUp", ExploreQuery{List: "coming-up", Window: window, Sort: "comingUp", Desc: true}},
	}
}

// Overview reads the materialised lists for a window, with each list's full count, in two
// queries whatever the number of lists.
func (w *Warehouse) Overview(ctx context.Context, d *Dataset, window int) (map[string]*Page, error) {
	out := map[string]*Page{}
	for _, l := range OverviewLists(window) {
		out[l.Name] = &Page{Rows: []TermRow{}}
	}
	counts, err := w.db.QueryContext(ctx, `select list, total from overview_counts where dataset_id = ? and window_periods = ?`, d.ID, window)
	if err != nil {
		return nil, err
	}
	for counts.Next() {
		var list string
		var total int
		if err := counts.Scan(&list, &total); err != nil {
			counts.Close()
			return nil, err
		}
		if p, ok := out[list]; ok {
			p.Total = total
		}
	}
	counts.Close()
	rows, err := w.db.QueryContext(ctx, `select `+termRowColumns+`, o.list from overview_terms o
		join term_stats s on s.dataset_id = o.dataset_id and s.term_id = o.term_id
		where o.dataset_id = ? and o.window_periods = ? order by o.list, o.pos`, d.ID, window)
	if err != nil {
		return nil, fmt.Errorf("overview: %w", err)
	}
	var lists []string
	var page []TermRow
	var refs [][3]sql.NullInt64
	for rows.Next() {
		var list string
		r, ref, err := scanTermRow(rows, &list)
		if err != nil {
			rows.Close()
			return nil, err
		}
		lists, page, refs = append(lists, list), append(page, r), append(refs, ref)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := w.fillTopNames(ctx, page, refs); err != nil {
		return nil, err
	}
	for i, r := range page {
		if p, ok := out[lists[i]]; ok {
			p.Rows = append(p.Rows, r)
		}
	}
	return out, nil
}
