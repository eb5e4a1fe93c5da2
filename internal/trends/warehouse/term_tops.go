package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// Each big product's and brand's best terms per period, beside the copy. A product or brand
// page lists the terms where it was in the top 3 in the last PresenceWindow periods, best rank
// first, at most a page of them. A brand in more than maxListedTerms terms of term_items
// (term_lists.go) was answered by scanning those periods of fact (3M rows and six columns
// each: 0.3 s at p50 on the 3M x 156 set, where each of the 20 brands is in ~546k terms).
// term_tops_<ds> keeps, for each such item and each of the last topsSpan periods, only its
// topsKept best-ranked rows, sorted by item, so a page reads a few row groups.
//
// Why that answers exactly: a page's terms are the limit best by (best rank, term id). Where an
// item had more than topsKept rows in a period, the table keeps them all up to a rank (the
// group's cut: every row of a better rank is kept). If the page found from the table (and from
// fact for the periods it does not cover) has its limit terms and the last one's best rank is
// below every cut of the window, each term that could belong on the page had its best row kept,
// so the page is the one fact gives; otherwise the page is read from fact (presentTermsSQL).
// A period counts as covered only while its import is the one the table was built from
// (term_tops_periods_<ds> records it), so a replaced, deleted or newer period is read from fact.

// topsTable, topsPeriodsTable and topsItemsTable name a dataset's tables in the copy file; ds
// comes from our own dataset table.
func topsTable(ds int) string        { return fmt.Sprintf("%s.term_tops_%d", copyDB, ds) }
func topsPeriodsTable(ds int) string { return fmt.Sprintf("%s.term_tops_periods_%d", copyDB, ds) }
func topsItemsTable(ds int) string   { return fmt.Sprintf("%s.term_tops_items_%d", copyDB, ds) }

// topsKept is how many rows per item and period the table keeps: the server's page (200
// terms), so a page nearly always comes from the table.
var topsKept = 200

// topsSpan is how many of the latest periods the table covers: the window and as many again,
// so the window stays covered while new periods are imported (they are read from fact) until
// the next rebuild of the copy, which comes after CompactAfter of them.
const topsSpan = 2 * PresenceWindow

// buildTermTops (re)builds the tables inside tx from fact (one period's rows are a few row
// groups there) for the items term_items lists in more than maxListedTerms terms.
func buildTermTops(ctx context.Context, tx *sql.Tx, ds int) error {
	err := execAll(ctx, tx,
		`create or replace table `+topsTable(ds)+` (kind tinyint not null, item_id integer not null, period_idx integer not null,
			term_id integer not null, rank integer not null, cut integer)`,
		`create or replace table `+topsPeriodsTable(ds)+` (period_idx integer not null, imported_at timestamp not null)`,
		fmt.Sprintf(`create or replace table %s as select kind, item_id from %s group by kind, item_id having count(*) > %d order by kind, item_id`,
			topsItemsTable(ds), itemsTable(ds), maxListedTerms),
		fmt.Sprintf(`insert into %s select period_idx, imported_at from period where dataset_id = %d
			and period_idx > (select max(period_idx) from period where dataset_id = %d) - %d`, topsPeriodsTable(ds), ds, ds, topsSpan))
	if err != nil {
		return err
	}
	periods, err := queryColumn[int](ctx, tx, `select period_idx from `+topsPeriodsTable(ds)+` order by period_idx`)
	if err != nil {
		return err
	}
	var slots []string
	for _, kind := range []struct {
		id     int
		column string
	}{{itemASIN, "asin"}, {itemBrand, "brand"}} {
		ids, err := queryColumn[int](ctx, tx, fmt.Sprintf(`select item_id from %s where kind = %d`, topsItemsTable(ds), kind.id))
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			continue
		}
		list := joinInts(ids)
		for k := 1; k <= 3; k++ {
			slots = append(slots, fmt.Sprintf(`select %[1]d kind, %[2]s%[3]d item, term_id, rank from fact
				where dataset_id = %[4]d and period_idx = $1 and %[2]s%[3]d in (%[5]s)`, kind.id, kind.column, k, ds, list))
		}
	}
	if len(slots) == 0 {
		return nil
	}
	// min_by keeps each group's topsKept best rows with a heap (no sort of the period's rows);
	// the cut is the worst kept rank (min_by lists them best first), recorded only where rows
	// were left out.
	q := fmt.Sprintf(`insert into %[1]s select kind, item, $1, t.term_id, t.rank, cut from (
			select kind, item, unnest(top) t, case when n > %[2]d then top[len(top)].rank end cut from (
				select kind, item, count(*) n, min_by({'term_id': term_id, 'rank': rank}, rank, %[2]d) top
				from (%[3]s) group by kind, item))`, topsTable(ds), topsKept, strings.Join(slots, " union all "))
	for _, idx := range periods {
		if _, err := tx.ExecContext(ctx, q, idx); err != nil {
			return err
		}
	}
	return execAll(ctx, tx, fmt.Sprintf(`create or replace table %[1]s as select * from %[1]s order by kind, item_id, period_idx, rank`, topsTable(ds)))
}

func joinInts(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, ",")
}

// presentTermsTop is presentTermsSQL from term_tops for an item the table holds: the window's
// covered periods from the table, the others from fact. ok is false when the table cannot
// prove the page (the item is not in it, or a cut of the window is not below the page's last
// rank): the caller then reads fact.
func presentTermsTop(ctx context.Context, tx *sql.Tx, ds int, column string, id int, match string, limit int) (terms []presentTerm, ok bool, err error) {
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`select p.period_idx, t.period_idx is not null, (select count(*) from %s where kind = %d and item_id = %d)
		from period p left join %s t on t.period_idx = p.period_idx and t.imported_at = p.imported_at where p.dataset_id = %d`,
		topsItemsTable(ds), itemKind(column), id, topsPeriodsTable(ds), ds))
	if err != nil {
		return nil, false, err
	}
	covered := map[int]bool{}
	held := 0
	for rows.Next() {
		var idx int
		var c bool
		if err := rows.Scan(&idx, &c, &held); err != nil {
			rows.Close()
			return nil, false, err
		}
		covered[idx] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil || held == 0 {
		return nil, false, err
	}
	L := -1
	for idx := range covered {
		L = max(L, idx)
	}
	var in, out []string
	for idx, c := range covered {
		if idx <= L-PresenceWindow {
			continue
		}
		if c {
			in = append(in, strconv.Itoa(idx))
		} else {
			out = append(out, strconv.Itoa(idx))
		}
	}
	top := fmt.Sprintf(`select term_id, rank, cut from %s where kind = %d and item_id = %d and period_idx in (%s)`,
		topsTable(ds), itemKind(column), id, strings.Join(append(in, "null"), ","))
	parts := []string{`select term_id, rank from top`}
	if len(out) > 0 {
		parts = append(parts, fmt.Sprintf(`select term_id, rank from fact where dataset_id = %d and period_idx in (%s) and %s`, ds, strings.Join(out, ","), match))
	}
	rows, err = tx.QueryContext(ctx, fmt.Sprintf(`with top as materialized (%[1]s), f as (
			select term_id, min(rank) best from (%[2]s) x group by term_id order by best, term_id limit %[3]d)
		select f.term_id, t.term, f.best, (select min(cut) from top) from f join term t on t.dataset_id = %[4]d and t.id = f.term_id
		order by f.best, f.term_id`, top, strings.Join(parts, " union all "), limit, ds))
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var cut sql.NullInt64
	var best int64
	for rows.Next() {
		var t presentTerm
		if err := rows.Scan(&t.id, &t.term, &best, &cut); err != nil {
			return nil, false, err
		}
		terms = append(terms, t)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	// Without a cut every row of the window is in the table; with one, the page must be full
	// and end below it (see the comment at the top).
	ok = !cut.Valid || (len(terms) == limit && best < cut.Int64)
	return terms, ok, nil
}
