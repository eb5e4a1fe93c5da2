package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Two more tables beside the term-ordered copy, built with its products table (term_products.go)
// whenever the copy is rebuilt, so the root-word group and the product and brand pages stop
// scanning fact:
//
//   - term_ranks_<ds>: one row per term of the copy with its lowercased string and its
//     (period, rank) pairs as one list (cellShift). A root-word group filters 3M strings and unnests the lists of
//     the matching terms, where it scanned and semi-joined all 468M fact rows (2.0-4.8 s on the
//     3M x 156 set).
//   - term_items_<ds>: every (product or brand, term) pair of the copy, sorted by the product or
//     brand, so a product or brand page finds its candidate terms in a few row groups (zone maps)
//     instead of scanning the last 13 periods of fact for six columns.
//
// Both hold only the periods the copy held when it was rebuilt (not those appended since):
// a "listed" period is one whose copy record is not appended and is of the period's current
// import. Every other loaded period (imported, replaced or appended since) is read from fact,
// and a listed period deleted since is filtered out by the period list, so the answers stay
// those of the SQL over fact after every import, replacement and deletion (term_lists_test.go
// compares them).

// ranksTable and itemsTable name a dataset's tables in the copy file; ds comes from our own
// dataset table.
func ranksTable(ds int) string { return fmt.Sprintf("%s.term_ranks_%d", copyDB, ds) }
func itemsTable(ds int) string { return fmt.Sprintf("%s.term_items_%d", copyDB, ds) }

// Item kinds in term_items.
const (
	itemASIN  = 0
	itemBrand = 1
)

// buildTermLists (re)builds both tables from the copy inside tx, in slices of term ids as
// buildProducts does (the lists of the whole copy at once would not fit the memory limit).
func buildTermLists(ctx context.Context, tx *sql.Tx, ds int) error {
	var lo, hi sql.NullInt64
	if err := tx.QueryRowContext(ctx, `select min(term_id), max(term_id) from `+byTermTable(ds)).Scan(&lo, &hi); err != nil {
		return err
	}
	listed := fmt.Sprintf(`(select period_idx from %s.compacted where dataset_id = %d and not coalesce(appended, false))`, copyDB, ds)
	err := execAll(ctx, tx,
		`create or replace table `+ranksTable(ds)+` (term_id integer not null, lterm varchar not null, cells bigint[] not null)`,
		`create or replace table `+itemsTable(ds)+` (kind tinyint not null, item_id integer not null, term_id integer not null)`)
	if err != nil {
		return err
	}
	for from := lo.Int64; lo.Valid && from <= hi.Int64; from += listSlice {
		slice := fmt.Sprintf(`term_id >= %d and term_id < %d and period_idx in %s`, from, from+listSlice, listed)
		err := execAll(ctx, tx,
			fmt.Sprintf(`insert into %s select r.term_id, lower(t.term), r.cells from (
				select term_id, list(period_idx::bigint * %d + rank) cells from %s where %s group by term_id) r
				join term t on t.dataset_id = %d and t.id >= %d and t.id < %d and t.id = r.term_id order by r.term_id`,
				ranksTable(ds), cellShift, byTermTable(ds), slice, ds, from, from+listSlice),
			fmt.Sprintf(`insert into %s select distinct %d, b, term_id from (select term_id, unnest([brand1, brand2, brand3]) b from %s where %s) where b is not null`,
				itemsTable(ds), itemBrand, byTermTable(ds), slice))
		if err != nil {
			return err
		}
	}
	// The products' pairs come from the products table (already distinct); then everything is
	// sorted by item, so a page reads the few row groups of its item.
	return execAll(ctx, tx,
		fmt.Sprintf(`insert into %s select %d, asin_id, term_id from %s`, itemsTable(ds), itemASIN, productsTable(ds)),
		fmt.Sprintf(`create or replace table %[1]s as select * from %[1]s order by kind, item_id, term_id`, itemsTable(ds)))
}

// listSlice is how many term ids one statement of buildTermLists covers: the lists of 500k
// terms (78M rows on the 3M x 156 set) ran out of memory at 704 MB.
var listSlice int64 = 100_000

// cellShift packs a (period, rank) pair into one bigint of a term's list, period_idx * cellShift
// + rank: one list keeps the pairs together (two lists would need their orders to agree).
const cellShift = 1 << 32

// periodCover is a loaded period as the fast paths see it.
type periodCover struct {
	inCopy bool // the copy holds its current rows (periodStates)
	listed bool // and term_ranks / term_items hold them too
}

// periodCovers reads the dataset's loaded periods with their cover, in tx.
func periodCovers(ctx context.Context, tx *sql.Tx, ds int) (map[int]periodCover, error) {
	rows, err := tx.QueryContext(ctx, `select p.period_idx, c.period_idx is not null, c.period_idx is not null and not coalesce(c.appended, false)
		from period p left join `+copyDB+`.compacted c on `+copyHolds+` where p.dataset_id = ?`, ds)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]periodCover{}
	for rows.Next() {
		var idx int
		var c periodCover
		if err := rows.Scan(&idx, &c.inCopy, &c.listed); err != nil {
			return nil, err
		}
		out[idx] = c
	}
	return out, rows.Err()
}

// splitListed returns the listed and the other periods of covers, as inline lists of
// integers (our own), "" when none; only periods accepted by keep count.
func splitListed(covers map[int]periodCover, keep func(int) bool) (listed, other string) {
	var l, o []string
	for idx, c := range covers {
		if !keep(idx) {
			continue
		}
		if c.listed {
			l = append(l, strconv.Itoa(idx))
		} else {
			o = append(o, strconv.Itoa(idx))
		}
	}
	return strings.Join(l, ","), strings.Join(o, ",")
}

// rootWordPointsDB answers a root-word group's points from DuckDB, when the demand file cannot
// (RootWords): from term_ranks for the listed periods and from fact for the others, when the
// dataset has its lists; otherwise rootWordPointsSQL.
func (w *Warehouse) rootWordPointsDB(ctx context.Context, d *Dataset, phrase string) ([]RootWordPoint, error) {
	if !w.products.holds(d.ID) {
		return rootWordPointsSQL(ctx, w.db, d, phrase, "")
	}
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	covers, err := periodCovers(ctx, tx, d.ID)
	if err != nil {
		return nil, err
	}
	listed, other := splitListed(covers, func(int) bool { return true })
	var parts []string
	args := []any{}
	if listed != "" {
		parts = append(parts, fmt.Sprintf(`select p, r from (select c // %[3]d p, c %% %[3]d r from (select unnest(cells) c from %[1]s where contains(lterm, ?))) where p in (%[2]s)`,
			ranksTable(d.ID), listed, cellShift))
		args = append(args, strings.ToLower(phrase))
	}
	if other != "" {
		parts = append(parts, fmt.Sprintf(`select period_idx, rank from fact where dataset_id = %[1]d and period_idx in (%[2]s)
			and term_id in (select id from term t where t.dataset_id = %[1]d and contains(lower(t.term), ?))`, d.ID, other))
		args = append(args, strings.ToLower(phrase))
	}
	if len(parts) == 0 {
		return []RootWordPoint{}, nil
	}
	q := fmt.Sprintf(`select p, count(*), sum(%v::double * pow(r, -%v::double)), min(r) from (%s) x(p, r) group by p order by p`,
		EstimateTop, EstimateExponent, strings.Join(parts, " union all "))
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("root words: %w", err)
	}
	return scanRootWordPoints(rows, d)
}

// rootWordPointsSQL is the group over fact alone, for datasets without a copy (and the
// reference the fast paths are tested against), in the periods listed (inline integers of
// our own; "": all). The matching term ids first (one scan of the dictionary), then the facts
// of those ids: joining every fact row to its term string scanned 468M rows with a string
// filter.
func rootWordPointsSQL(ctx context.Context, q querier, d *Dataset, phrase, periods string) ([]RootWordPoint, error) {
	only := ""
	if periods != "" {
		only = "and f.period_idx in (" + periods + ")"
	}
	rows, err := q.QueryContext(ctx, `select f.period_idx, count(*), sum(?::double * pow(f.rank, -?::double)), min(f.rank)
		from fact f where f.dataset_id = ? `+only+` and f.term_id in (
			select id from term t where t.dataset_id = ? and contains(lower(t.term), ?))
		group by f.period_idx order by f.period_idx`,
		EstimateTop, EstimateExponent, d.ID, d.ID, strings.ToLower(phrase))
	if err != nil {
		return nil, fmt.Errorf("root words: %w", err)
	}
	return scanRootWordPoints(rows, d)
}

func scanRootWordPoints(rows *sql.Rows, d *Dataset) ([]RootWordPoint, error) {
	defer rows.Close()
	points := []RootWordPoint{}
	for rows.Next() {
		var idx int
		var p RootWordPoint
		if err := rows.Scan(&idx, &p.Terms, &p.EstimatedSearches, &p.BestRank); err != nil {
			return nil, err
		}
		p.Start, p.EstimatedSearches = periodFromIndex(d.Kind, idx).Start, math.Round(p.EstimatedSearches)
		points = append(points, p)
	}
	return points, rows.Err()
}
