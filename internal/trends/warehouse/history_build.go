package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/demandfile"
	"github.com/sellertrends/sellertrends/internal/trends/histfile"
)

// maxPending is how many terms' rows a build keeps while it waits to read names the products
// table lacks (products that reached a term's top 3 in periods appended since the copy's
// rebuild), bounding its memory.
var maxPending = 500 // tests make it small

// historySlice is how many term ids one statement of a history file's build reads: ~1.5M
// rows at 156 periods, which DuckDB sorts within its memory limit.
var historySlice = 10_000 // tests make it small

// phraseTerms: a word or word pair in this many terms has its root-word group stored in the
// demand file (demandfile/frequent.go).
var phraseTerms = demandfile.DefaultPhraseTerms // tests make it small

// refreshHistoryFile writes dataset ds's history file anew when it does not hold exactly the
// dataset's periods from their current imports and the dataset has a term-ordered copy (the
// background job calls it after the copy). It reads the copy, and fact for the periods the copy
// does not hold (a replaced period waits for the copy's rebuild), in one transaction, so the
// file is one snapshot, and stops when ctx is cancelled (an import waiting), leaving the old
// file.
func (w *Warehouse) refreshHistoryFile(ctx context.Context, ds int) error {
	// Cancellation stops it between slices, not during a statement: a DuckDB statement
	// cancelled as it starts can leave its connection in a state that keeps the database open
	// (warehouse.go: Close).
	stop := ctx
	ctx = context.WithoutCancel(ctx)
	// One build at a time, each reading the store as it is once it starts: a build from an
	// older snapshot cannot finish last.
	w.histBuildMu.Lock()
	defer w.histBuildMu.Unlock()
	tables := w.copyTablesOf(ds) // before the transaction: copyTablesOf
	tx, err := beginTx(ctx, w.db)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	loaded, inCopy, err := datasetPeriods(ctx, tx, ds)
	if err != nil || len(inCopy) == 0 {
		return err
	}
	path := historyFilePath(w.asinIndex, ds)
	if f, err := histfile.Open(path); err == nil {
		current := f.Dataset() == int64(ds) && holdsExactly(f.Periods(), loaded) && demandFileHolds(path, ds, loaded)
		f.Close()
		if current {
			w.hist.open(path, ds) // before the first lookup, which would otherwise pay for it
			return nil
		}
	}
	start := time.Now()
	if err := w.writeHistoryFile(ctx, stop, tx, tables, ds, path, loaded, inCopy); err != nil {
		return err
	}
	w.hist.drop(path, ds, false)
	w.hist.open(path, ds)
	slog.Info("trends: history file written", "dataset", ds, "took", time.Since(start).Round(time.Millisecond))
	// The build's buffers (a process peak of 1.2-1.4 GB at full size) are garbage now; hand
	// them back to the system at once rather than hold them while the server only answers.
	debug.FreeOSMemory()
	return nil
}

// RefreshHistoryFiles brings every dataset's history file up to date now, as the background
// job does after imports (the benchmark times it).
func (w *Warehouse) RefreshHistoryFiles(ctx context.Context) error {
	copied, err := queryColumn[int](ctx, w.db, `select distinct dataset_id from `+copyDB+`.compacted`)
	if err != nil {
		return err
	}
	for _, ds := range copied {
		if err := w.refreshHistoryFile(ctx, ds); err != nil {
			return err
		}
	}
	return nil
}

// refreshHistoryFilesLater runs RefreshHistoryFiles in the background (ResumeCopies: a file
// lost, damaged or never written is written when the server starts, not only after the next
// import).
func (w *Warehouse) refreshHistoryFilesLater() {
	w.bg.Go(func() {
		if err := w.RefreshHistoryFiles(w.bgCtx); err != nil && w.bgCtx.Err() == nil {
			slog.Error("trends: writing the history files failed", "err", err)
		}
	})
}

// refreshHistoryFileLater runs refreshHistoryFile in the background (a damaged file was
// removed).
func (w *Warehouse) refreshHistoryFileLater(ds int) {
	w.bgMu.Lock() // as afterImport: Close waits for the work only once none can start
	defer w.bgMu.Unlock()
	if w.bgCtx.Err() != nil {
		return
	}
	w.bg.Go(func() {
		if err := w.refreshHistoryFile(w.bgCtx, ds); err != nil && w.bgCtx.Err() == nil {
			slog.Error("trends: writing the history file failed", "dataset", ds, "err", err)
		}
	})
}

// datasetPeriods are the dataset's periods with their import's time, and those the copy holds
// from that import.
func datasetPeriods(ctx context.Context, tx *sql.Tx, ds int) (map[int]time.Time, map[int]bool, error) {
	rows, err := tx.QueryContext(ctx, `select p.period_idx, p.imported_at, exists (select 1 from `+copyDB+`.compacted c where `+copyHolds+`)
		from period p where p.dataset_id = ?`, ds)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	loaded, inCopy := map[int]time.Time{}, map[int]bool{}
	for rows.Next() {
		var idx int
		var at time.Time
		var held bool
		if err := rows.Scan(&idx, &at, &held); err != nil {
			return nil, nil, err
		}
		loaded[idx] = at
		if held {
			inCopy[idx] = true
		}
	}
	return loaded, inCopy, rows.Err()
}

// writeHistoryFile writes the file from the rows of the loaded periods, from the copy for those
// it holds (inCopy) and from fact for the others, a slice of term ids at a time.
func (w *Warehouse) writeHistoryFile(ctx, stop context.Context, tx *sql.Tx, tables copyTables, ds int, path string, loaded map[int]time.Time, inCopy map[int]bool) error {
	var periods []histfile.Period
	var held, fresh []string
	for idx, at := range loaded {
		periods = append(periods, histfile.Period{Idx: int32(idx), ImportedAt: at.UnixMicro()})
		if inCopy[idx] {
			held = append(held, strconv.Itoa(idx))
		} else {
			fresh = append(fresh, strconv.Itoa(idx))
		}
	}
	b := &historyBuild{tx: tx, tables: tables, ds: ds, w: w, names: map[string]map[int64][2]string{"asin": {}, "brand": {}, "category": {}},
		columns: map[int]int{}}
	for i, p := range periods {
		b.columns[int(p.Idx)] = i
	}
	// Every value listed inline is an integer from our own tables.
	b.sources = append(b.sources, fmt.Sprintf(`select %s from %s where period_idx in (%s)`, factColumns, byTermTable(ds), strings.Join(held, ",")))
	if len(fresh) > 0 {
		b.sources = append(b.sources, fmt.Sprintf(`select %s from fact where dataset_id = %d and period_idx in (%s)`, factColumns, ds, strings.Join(fresh, ",")))
	}
	var lo, hi sql.NullInt64
	if err := tx.QueryRowContext(ctx, `select min(term_id), max(term_id) from (`+strings.Join(b.sources, " union all ")+`)`).Scan(&lo, &hi); err != nil {
		return err
	}
	fw, err := histfile.Create(path, int64(ds), blockColumns, periods)
	if err != nil {
		return err
	}
	dw, err := demandfile.Create(demandFilePath(path), int64(ds), demandPeriods(periods))
	if err != nil {
		fw.Abort()
		return err
	}
	dw.PhraseTerms = phraseTerms
	b.out, b.demand = fw, dw
	for from := lo.Int64; lo.Valid && from <= hi.Int64; from += int64(historySlice) {
		err := stop.Err()
		if err == nil {
			err = b.slice(ctx, from, from+int64(historySlice))
		}
		if err != nil {
			fw.Abort()
			dw.Abort()
			return err
		}
	}
	// The demand file first: a history file in place is what says both are current.
	if err := dw.Finish(); err != nil {
		fw.Abort()
		return err
	}
	return fw.Finish()
}

// historyBuild is one build of a history file.
type historyBuild struct {
	tx     *sql.Tx
	tables copyTables // those tx sees
	ds     int
	w      *Warehouse
	out    *histfile.Writer
	// demand gets each term's weight per period (root_word_file.go), in columns' order.
	demand  *demandfile.Writer
	columns map[int]int
	lterms  map[int64]string // the slice's terms lowercased as DuckDB does
	// sources are the statements reading the rows (the copy's, fact's), filtered by term id.
	sources []string
	// names: the brand and category names read so far (few), and the product names of the
	// slice being written.
	names map[string]map[int64][2]string
}

// slice writes the blocks of the terms with ids in [from, to).
func (b *historyBuild) slice(ctx context.Context, from, to int64) error {
	terms, err := b.sliceTerms(ctx, from, to)
	if err != nil {
		return err
	}
	b.names["asin"] = map[int64][2]string{}
	if err := b.productNames(ctx, from, to); err != nil {
		return err
	}
	parts := make([]string, len(b.sources))
	for i, s := range b.sources {
		parts[i] = fmt.Sprintf(`%s and term_id >= %d and term_id < %d`, s, from, to)
	}
	rows, err := b.tx.QueryContext(ctx, strings.Join(parts, " union all ")+` order by term_id, period_idx`)
	if err != nil {
		return err
	}
	var pending [][]factRow // terms naming something not read yet
	var cur []factRow
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		if b.missing(cur, nil) {
			pending = append(pending, cur)
			if len(pending) >= maxPending {
				err := b.writePending(ctx, terms, pending)
				pending = nil
				if err != nil {
					return err
				}
			}
		} else if err := b.write(terms[cur[0].termID], cur); err != nil {
			return err
		}
		cur = nil
		return nil
	}
	for rows.Next() {
		var r factRow
		if err := r.scan(rows); err != nil {
			rows.Close()
			return err
		}
		if len(cur) > 0 && cur[0].termID != r.termID {
			if err := flush(); err != nil {
				rows.Close()
				return err
			}
		}
		cur = append(cur, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	return b.writePending(ctx, terms, pending)
}

// sliceTerms reads the terms with ids in [from, to) as stored, and keeps them lowercased as
// DuckDB lowercases them in b.lterms (the demand file's strings), in one read of the dictionary.
func (b *historyBuild) sliceTerms(ctx context.Context, from, to int64) (map[int64]string, error) {
	rows, err := b.tx.QueryContext(ctx, `select id, term, lower(term) from term where dataset_id = ? and id >= ? and id < ?`, b.ds, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	terms := map[int64]string{}
	b.lterms = map[int64]string{}
	for rows.Next() {
		var id int64
		var term, lower string
		if err := rows.Scan(&id, &term, &lower); err != nil {
			return nil, err
		}
		terms[id], b.lterms[id] = term, lower
	}
	return terms, rows.Err()
}

// writePending reads the names the pending terms need and writes their blocks.
func (b *historyBuild) writePending(ctx context.Context, terms map[int64]string, pending [][]factRow) error {
	if len(pending) == 0 {
		return nil
	}
	ids := map[string]map[int64]bool{"asin": {}, "brand": {}, "category": {}}
	for _, rows := range pending {
		b.missing(rows, ids)
	}
	got, err := b.w.dictionaryNames(ctx, ids)
	if err != nil {
		return err
	}
	for kind, m := range got {
		for id, v := range m {
			b.names[kind][id] = v
		}
	}
	for _, rows := range pending {
		if err := b.write(terms[rows[0].termID], rows); err != nil {
			return err
		}
	}
	return nil
}

// productNames reads the codes and titles of the slice's products from the products table.
func (b *historyBuild) productNames(ctx context.Context, from, to int64) error {
	if !b.tables.products {
		return nil
	}
	rows, err := b.tx.QueryContext(ctx, fmt.Sprintf(`select distinct asin_id, asin, title from %s where term_id >= %d and term_id < %d`,
		productsTable(b.ds), from, to))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var asin string
		var title sql.NullString
		if err := rows.Scan(&id, &asin, &title); err != nil {
			return err
		}
		b.names["asin"][id] = [2]string{asin, title.String}
	}
	return rows.Err()
}

// missing says whether rows name a product, brand or category not read yet, adding their ids
// to ids when it is not nil.
func (b *historyBuild) missing(rows []factRow, ids map[string]map[int64]bool) bool {
	found := false
	for _, r := range rows {
		for k := range 3 {
			for kind, v := range map[string]sql.NullInt64{"asin": r.asin[k], "brand": r.brand[k], "category": r.cat[k]} {
				if _, ok := b.names[kind][v.Int64]; v.Valid && !ok {
					found = true
					if ids != nil {
						ids[kind][v.Int64] = true
					}
				}
			}
		}
	}
	return found
}

// write writes one term's block: its rows and the names they use.
func (b *historyBuild) write(term string, rows []factRow) error {
	blk := &histfile.Block{Term: term, TermID: rows[0].termID, Rows: make([]histfile.Row, len(rows))}
	seen := map[string]map[int64]bool{"asin": {}, "brand": {}, "category": {}}
	for i := range rows {
		r := &rows[i]
		blk.Rows[i] = blockRow(r)
		for k := range 3 {
			for slot, c := range []struct {
				kind string
				v    sql.NullInt64
			}{{"asin", r.asin[k]}, {"brand", r.brand[k]}, {"category", r.cat[k]}} {
				if !c.v.Valid || seen[c.kind][c.v.Int64] {
					continue
				}
				seen[c.kind][c.v.Int64] = true
				if n, ok := b.names[c.kind][c.v.Int64]; ok {
					blk.Names[slot] = append(blk.Names[slot], histfile.Name{ID: c.v.Int64, Name: n[0], Title: n[1]})
				}
			}
		}
	}
	if err := b.out.Add(blk); err != nil {
		return err
	}
	weights := make([]float32, len(b.columns))
	for i := range rows {
		weights[b.columns[rows[i].idx]] = demandWeight(rows[i].rank)
	}
	return b.demand.Add(b.lterms[rows[0].termID], weights)
}
