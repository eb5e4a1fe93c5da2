package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// ShareAt is a product's or brand's place for one term in one period.
type ShareAt struct {
	Start           time.Time `json:"start"`
	Rank            int       `json:"rank"` // the term's search frequency rank
	Slot            int       `json:"slot"` // 1..3 among the top clicked
	ClickShare      *float64  `json:"clickShare"`
	ConversionShare *float64  `json:"conversionShare"`
	CloserRatio     *float64  `json:"closerRatio"` // closerRatio
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
	id, title, err := w.asinOf(ctx, strings.ToUpper(asin))
	if err != nil {
		return nil, notFound(err)
	}
	p, err := w.presence(ctx, d, "asin", id, limit)
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
	p, err := w.presence(ctx, d, "brand", id, limit)
	if err != nil {
		return nil, err
	}
	p.Key = name
	return p, nil
}

// PresenceWindow is how many recent periods decide which terms a product or brand page lists:
// every term where it was in the top 3 in any of them. Each listed term then shows its whole
// history. Searching every period instead meant scanning all 468M rows of a full-size dataset.
const PresenceWindow = 13

// presence finds the terms where slot column = id in the recent periods (best rank first, at
// most limit), then reads their whole histories from the term-ordered copy and fact.
func (w *Warehouse) presence(ctx context.Context, d *Dataset, column string, id, limit int) (*Presence, error) {
	tables := w.copyTablesOf(d.ID) // before the snapshot: copyTablesOf
	presenceTablesRead()
	tx, periods, err := w.snapshot(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	presenceSnapshotTaken()
	match := fmt.Sprintf("(%[1]s1 = %[2]d or %[1]s2 = %[2]d or %[1]s3 = %[2]d)", column, id)
	terms, err := presentTerms(ctx, tx, tables, d.ID, periods, column, id, match, limit)
	if err != nil {
		return nil, fmt.Errorf("presence: %w", err)
	}
	p := &Presence{Terms: []TermShares{}}
	if len(terms) == 0 {
		return p, nil
	}
	rows, err := w.presenceRows(ctx, tx, d, periods, terms, column, id, match)
	if err != nil {
		return nil, fmt.Errorf("presence: %w", err)
	}
	byTerm := map[int]*TermShares{}
	for _, t := range terms {
		byTerm[t.id] = &TermShares{Term: t.term}
	}
	for _, r := range rows {
		slot := r.slot(column, id) // every row holds it: presenceRows
		ts := byTerm[int(r.termID)]
		ts.Points = append(ts.Points, ShareAt{Start: periodFromIndex(d.Kind, r.idx).Start, Rank: r.rank, Slot: slot + 1,
			ClickShare: share(r.click[slot]), ConversionShare: share(r.conv[slot]), CloserRatio: closerRatio(r.click[slot], r.conv[slot])})
		ts.Latest = r.rank
	}
	for _, t := range terms {
		p.Terms = append(p.Terms, *byTerm[t.id])
	}
	sort.SliceStable(p.Terms, func(i, j int) bool { return p.Terms[i].Latest < p.Terms[j].Latest })
	return p, nil
}

// presenceSnapshotTaken runs once a page's snapshot is taken; a test builds the lists there.
// presenceTablesRead runs between reading the flags and taking the snapshot; a test deletes
// the workspace there.
var presenceSnapshotTaken, presenceTablesRead = func() {}, func() {}

// presenceRows are the rows of the page's terms where the product or brand is in the top 3,
// each term's by period. They come from the history file when it holds the snapshot's periods
// (0.1-0.3 ms a term, where DuckDB read a row group of the copy per term), from the copy and
// fact otherwise.
func (w *Warehouse) presenceRows(ctx context.Context, tx *sql.Tx, d *Dataset, periods map[int]bool, terms []presentTerm, column string, id int, match string) ([]factRow, error) {
	strs := make([]string, len(terms))
	for i, t := range terms {
		strs[i] = t.term
	}
	if b, ok := w.blocksFromFile(ctx, d, strs); ok && sameKeys(b.recs.imported, periods) {
		presenceFromFile.Add(1)
		var out []factRow
		for _, r := range b.rows {
			if r.slot(column, id) >= 0 {
				out = append(out, r)
			}
		}
		return out, nil
	}
	ids := make([]string, len(terms))
	for i, t := range terms {
		ids[i] = strconv.Itoa(t.id)
	}
	hist, err := tx.QueryContext(ctx, `select * from (`+historySQL(d.ID, ids, periods)+`) where `+match+` order by term_id, period_idx`)
	if err != nil {
		return nil, err
	}
	defer hist.Close()
	var out []factRow
	for hist.Next() {
		var r factRow
		if err := r.scan(hist); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, hist.Err()
}

// presenceFromFile counts the pages whose rows came from a history file (tests read it).
var presenceFromFile atomic.Int64

// sameKeys says whether two maps have the same keys.
func sameKeys[A, B any](a map[int]A, b map[int]B) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// presentTermsSQL lists (term id, term) of the terms where match held in the last
// PresenceWindow periods, best rank first, by scanning those periods of fact.
func presentTermsSQL(ctx context.Context, tx *sql.Tx, ds int, periods map[int]bool, match string, limit int) ([]presentTerm, error) {
	L := -1
	for idx := range periods {
		L = max(L, idx)
	}
	return scanPresent(tx.QueryContext(ctx, fmt.Sprintf(`select f.term_id, t.term from (
			select term_id, min(rank) best from fact where dataset_id = %[1]d and period_idx > %[2]d and %[3]s
			group by term_id order by best, term_id limit %[4]d) f
		join term t on t.dataset_id = %[1]d and t.id = f.term_id order by f.best, f.term_id`, ds, L-PresenceWindow, match, limit)))
}

// maxListedTerms is how many terms a product or brand may have had in its top 3 (term_items)
// for its page to read their rows from the copy: up to MaxPage, DuckDB passes the terms to the
// copy's scan as exact values (pageFilterSetting), beyond it as a range that reads most of the
// copy, and the window's periods of fact are read faster (a brand of 55k terms of the 300k x
// 156 set: 600 ms from the copy against 300 ms from fact).
var maxListedTerms = MaxPage

// presentTerm is a term a product or brand page lists.
type presentTerm struct {
	id   int
	term string
}

func scanPresent(rows *sql.Rows, err error) ([]presentTerm, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []presentTerm
	for rows.Next() {
		var t presentTerm
		if err := rows.Scan(&t.id, &t.term); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// presentTerms lists the terms of a page, best rank first: from the lists (term_items) for a
// product or brand in at most maxListedTerms of their terms, from term_tops (term_tops.go) for
// one in more when they prove the page, and from fact otherwise.
func presentTerms(ctx context.Context, tx *sql.Tx, tables copyTables, ds int, periods map[int]bool, column string, id int, match string, limit int) ([]presentTerm, error) {
	if !tables.products {
		return presentTermsSQL(ctx, tx, ds, periods, match, limit)
	}
	var n int
	err := tx.QueryRowContext(ctx, fmt.Sprintf(`select count(*) from %s where kind = %d and item_id = %d`, itemsTable(ds), itemKind(column), id)).Scan(&n)
	if err != nil {
		return nil, err
	}
	if n <= maxListedTerms {
		return presentTermsListed(ctx, tx, ds, column, id, match, limit)
	}
	if tables.tops {
		terms, ok, err := presentTermsTop(ctx, tx, ds, column, id, match, limit)
		if err != nil || ok {
			return terms, err
		}
	}
	return presentTermsSQL(ctx, tx, ds, periods, match, limit)
}

func itemKind(column string) int {
	if column == "brand" {
		return itemBrand
	}
	return itemASIN
}

// presentTermsListed is presentTermsSQL from term_items (term_lists.go): the terms the
// product or brand had in the listed periods are read in a few row groups, and only their
// rows of the window's listed periods from the copy; the window's other periods (imported,
// replaced or appended since the lists were built) are scanned in fact as before.
func presentTermsListed(ctx context.Context, tx *sql.Tx, ds int, column string, id int, match string, limit int) ([]presentTerm, error) {
	covers, err := periodCovers(ctx, tx, ds)
	if err != nil {
		return nil, err
	}
	L := -1
	for idx := range covers {
		L = max(L, idx)
	}
	listed, other := splitListed(covers, func(idx int) bool { return idx > L-PresenceWindow })
	kind := itemKind(column)
	var parts []string
	if listed != "" {
		// The candidates as a subquery: DuckDB passes up to MaxPage of them to the copy's scan
		// as exact values (pageFilterSetting), more as a range; a popular brand has thousands.
		parts = append(parts, fmt.Sprintf(`select term_id, rank from %s where term_id in (select term_id from %s where kind = %d and item_id = %d)
			and period_idx in (%s) and %s`, byTermTable(ds), itemsTable(ds), kind, id, listed, match))
	}
	if other != "" {
		parts = append(parts, fmt.Sprintf(`select term_id, rank from fact where dataset_id = %d and period_idx in (%s) and %s`, ds, other, match))
	}
	if len(parts) == 0 {
		parts = append(parts, `select null::integer, null::integer where false`)
	}
	return scanPresent(tx.QueryContext(ctx, fmt.Sprintf(`select f.term_id, t.term from (
			select term_id, min(rank) best from (%[2]s) x(term_id, rank) group by term_id order by best, term_id limit %[3]d) f
		join term t on t.dataset_id = %[1]d and t.id = f.term_id order by f.best, f.term_id`, ds, strings.Join(parts, " union all "), limit)))
}
