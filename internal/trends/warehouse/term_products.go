package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Each term's products, beside the term-ordered copy. A history names the 3-5 products a term
// had in its top 3 over the years, and looking each up in the 15M-row ASIN dictionary was one
// point query per product (2.3-3.1 / 5-9 ms, p50 / p95, for a term on the 3M x 156 set). The
// copy file also holds, per dataset, every (term, product) pair the copy has with the
// product's code and title, sorted by term, so a history names them with one point query per
// term (1.1-1.3 / 2-3 ms). A product's code and title never change once in the dictionary
// (titles.go stores a title only with a new ASIN), so the table is never stale, only
// incomplete: products that first reached a term's top 3 after the last rebuild (appended or
// replaced periods) are looked up in the dictionary as before.

// productsTable names a dataset's (term, product) table in the copy file; ds comes from our
// own dataset table.
func productsTable(ds int) string { return fmt.Sprintf("%s.products_by_term_%d", copyDB, ds) }

// productSlice is how many term ids one statement of a build covers: grouping the pairs of the
// whole 3M x 156 copy at once ran out of memory at 1 GB; a slice of 500k terms takes ~8 s.
const productSlice = 500_000

// buildProducts (re)builds a dataset's table from its copy inside tx, which writes only the
// copy file.
func buildProducts(ctx context.Context, tx *sql.Tx, ds int) error {
	var lo, hi sql.NullInt64
	if err := tx.QueryRowContext(ctx, `select min(term_id), max(term_id) from `+byTermTable(ds)).Scan(&lo, &hi); err != nil {
		return err
	}
	table := productsTable(ds)
	if _, err := tx.ExecContext(ctx, `create or replace table `+table+
		` (term_id integer not null, asin_id integer not null, asin varchar not null, title varchar)`); err != nil {
		return err
	}
	for from := lo.Int64; lo.Valid && from <= hi.Int64; from += productSlice {
		_, err := tx.ExecContext(ctx, fmt.Sprintf(`insert into %s select p.term_id, p.asin_id, a.asin, a.title
			from (select distinct term_id, unnest([asin1, asin2, asin3]) as asin_id from %s where term_id >= %d and term_id < %d) p
			join asin a on a.id = p.asin_id order by p.term_id`, table, byTermTable(ds), from, from+productSlice))
		if err != nil {
			return err
		}
	}
	return nil
}

// productTables remembers which datasets have their products table, so that a history asks it
// only when it exists. It is filled when the store opens and after each build; a table, once
// there, is only ever replaced whole.
type productTables struct {
	mu  sync.Mutex
	has map[int]bool
}

func (p *productTables) set(ds int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.has[ds] = true
}

func (p *productTables) holds(ds int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.has[ds]
}

// copyTables says which of the tables built beside a dataset's copy exist.
type copyTables struct {
	products bool // products_by_term, term_ranks and term_items (term_lists.go)
	tops     bool // term_tops (term_tops.go)
}

// copyTablesOf says which of dataset ds's copy tables a transaction begun after this call
// sees. It must be read before the transaction begins: the flags are set once a build has
// committed, so one set after a question's snapshot began names tables the snapshot lacks
// (a product page then failed with "Table with name term_items_1 does not exist").
func (w *Warehouse) copyTablesOf(ds int) copyTables {
	return copyTables{products: w.products.holds(ds), tops: w.tops.holds(ds)}
}

// loadProductTables lists the datasets whose copy has its products table and the lists
// (term_lists.go): a copy from before the lists gets them from the same background build as
// one without products.
func loadProductTables(ctx context.Context, db *sql.DB) (*productTables, error) {
	return loadTableSet(ctx, db, `^(products_by_term|term_ranks|term_items)_\d+$`, 3)
}

// loadTopTables lists the datasets whose copy has its term_tops tables (term_tops.go).
func loadTopTables(ctx context.Context, db *sql.DB) (*productTables, error) {
	return loadTableSet(ctx, db, `^term_tops(_periods|_items)?_\d+$`, 3)
}

// loadTableSet lists the datasets for which the copy file has n tables whose names match
// pattern (each ending in _<dataset id>).
func loadTableSet(ctx context.Context, db *sql.DB, pattern string, n int) (*productTables, error) {
	ids, err := queryColumn[int](ctx, db, `select ds from (
			select cast(regexp_extract(table_name, '_(\d+)$', 1) as integer) ds, count(*) n from duckdb_tables()
			where database_name = ? and regexp_matches(table_name, ?) group by ds)
		where n = ?`, copyDB, pattern, n)
	if err != nil {
		return nil, err
	}
	p := &productTables{has: map[int]bool{}}
	for _, ds := range ids {
		p.has[ds] = true
	}
	return p, nil
}

// ensureProducts builds the products table of a dataset whose copy has none (a copy built
// before the table existed).
func (w *Warehouse) ensureProducts(ctx context.Context, ds int) error {
	if w.products.holds(ds) {
		return nil
	}
	if copied, err := hasCopy(ctx, w.db, ds); err != nil || !copied {
		return err
	}
	defer w.lockWriter(ctx)()
	if err := ctx.Err(); err != nil || w.products.holds(ds) {
		return err
	}
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Checked again in the transaction: the copy could have gone meanwhile.
	if copied, err := hasCopy(ctx, tx, ds); err != nil || !copied {
		return err
	}
	return w.commitWithProducts(ctx, tx, ds)
}

// commitWithProducts builds a dataset's products table, lists and tops from its copy inside
// tx, commits, and remembers them.
func (w *Warehouse) commitWithProducts(ctx context.Context, tx *sql.Tx, ds int) error {
	if err := buildProducts(ctx, tx, ds); err != nil {
		return fmt.Errorf("products by term: %w", err)
	}
	if err := buildTermLists(ctx, tx, ds); err != nil {
		return fmt.Errorf("term lists: %w", err)
	}
	if err := buildTermTops(ctx, tx, ds); err != nil {
		return fmt.Errorf("term tops: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	w.products.set(ds)
	w.tops.set(ds)
	return nil
}

// ensureTops builds the tops (term_tops.go) of a dataset whose copy has its lists but no tops
// (a copy built before they existed).
func (w *Warehouse) ensureTops(ctx context.Context, ds int) error {
	if w.tops.holds(ds) || !w.products.holds(ds) {
		return nil
	}
	defer w.lockWriter(ctx)()
	if err := ctx.Err(); err != nil || w.tops.holds(ds) {
		return err
	}
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	start := time.Now()
	if err := buildTermTops(ctx, tx, ds); err != nil {
		return fmt.Errorf("term tops: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	w.tops.set(ds)
	slog.Debug("trends: term tops built", "dataset", ds, "took", time.Since(start))
	return nil
}

// termProductNames names those of the products (asin ids) that the terms' rows in the products
// table hold, and removes them from asins. It asks the table only when some of the names are
// not cached, and reads outside the history's transaction: what it reads never changes.
func (w *Warehouse) termProductNames(ctx context.Context, ds int, termIDs []string, asins map[int64]bool) (map[int64][2]string, error) {
	out := map[int64][2]string{}
	uncached := false
	for id := range asins {
		if _, ok := w.cachedName("asin", id); !ok {
			uncached = true
			break
		}
	}
	if !uncached || len(termIDs) == 0 || !w.products.holds(ds) {
		return out, nil
	}
	// One point query per term (zone maps on term_id), as for the term ids: "in (...)" would
	// scan the table. The ids are integers from our own tables.
	parts := make([]string, len(termIDs))
	for i, id := range termIDs {
		parts[i] = fmt.Sprintf(`select asin_id, asin, title from %s where term_id = %s`, productsTable(ds), id)
	}
	rows, err := w.db.QueryContext(ctx, strings.Join(parts, " union all "))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var asin string
		var title sql.NullString
		if err := rows.Scan(&id, &asin, &title); err != nil {
			return nil, err
		}
		if asins[id] {
			out[id] = [2]string{asin, title.String}
			delete(asins, id)
		}
	}
	return out, rows.Err()
}

// hasCopy tells whether a dataset has a term-ordered copy.
func hasCopy(ctx context.Context, q queryer, ds int) (bool, error) {
	var copied bool
	err := q.QueryRowContext(ctx, `select count(*) > 0 from `+copyDB+`.compacted where dataset_id = ?`, ds).Scan(&copied)
	return copied, err
}
