package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/demandfile"
	"github.com/sellertrends/sellertrends/internal/trends/histfile"
)

// The history file (package histfile) answers a term's history without DuckDB: one file per
// dataset beside the store, holding each term's rows of every period and the names they use,
// written by the background job from the term-ordered copy once the copy holds every period.
// The file records the import each period's rows came from; a lookup uses it only when those
// are exactly the dataset's periods and current imports (a period imported, replaced or
// deleted since it was written sends the lookup to DuckDB until the job rewrites it), so it
// never answers from stale rows. A damaged file is dropped and rewritten. The period records
// it is compared with are cached per dataset, and the cache is only trusted while no writer
// has held the lock since it was filled (writeGen).

// historyFilePath is the history file of dataset ds of the store whose ASIN index is at asinIdx.
func historyFilePath(asinIdx string, ds int) string {
	return fmt.Sprintf("%s-history-%d.hist", strings.TrimSuffix(asinIdx, "-asins.idx"), ds)
}

// historyFiles holds the open history files and the cached period records, per dataset.
type historyFiles struct {
	mu      sync.RWMutex
	files   map[int]*histfile.File
	demand  map[int]*demandfile.File // opened, dropped and removed with the history file
	absent  map[int]bool             // no usable file: not opened again until one is written
	periods map[int]periodRecords
}

// periodRecords are a dataset's periods (import time and deepest rank by period index) as of
// writer generation gen.
type periodRecords struct {
	gen      uint64
	imported map[int]time.Time
	deepest  map[int]int
}

// file returns dataset ds's open history file, opening it the first time; nil when there is
// none or it is unusable (damaged says it was found damaged now). The caller holds mu for
// reading, which it briefly gives up to open the file.
func (h *historyFiles) file(path string, ds int) (f *histfile.File, damaged bool) {
	if f := h.files[ds]; f != nil || h.absent[ds] {
		return f, false
	}
	h.mu.RUnlock()
	damaged = h.open(path, ds)
	h.mu.RLock()
	return h.files[ds], damaged // nil if dropped meanwhile: the next lookup opens it again
}

// open opens dataset ds's file unless it is open or known absent, removing it when it is
// unusable, which it reports.
func (h *historyFiles) open(path string, ds int) (damaged bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.files[ds] != nil || h.absent[ds] {
		return false
	}
	f, err := histfile.Open(path)
	if err == nil && (f.Dataset() != int64(ds) || f.Columns() != blockColumns) {
		f.Close()
		err = errors.New("written for another dataset or in another layout")
	}
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			slog.Warn("trends: history file not used; it will be rewritten", "dataset", ds, "err", err)
			os.Remove(path)
			damaged = true
		}
		h.absent[ds] = true
		return damaged
	}
	h.files[ds] = f
	d, err := demandfile.Open(demandFilePath(path))
	if err == nil && d.Dataset() != int64(ds) {
		d.Close()
		err = errors.New("written for another dataset")
	}
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			slog.Warn("trends: demand file not used; it will be rewritten", "dataset", ds, "err", err)
			os.Remove(demandFilePath(path))
			return true
		}
		return false
	}
	h.demand[ds] = d
	return false
}

// drop closes and forgets dataset ds's file (removing it when remove is set), so the next
// lookup opens whatever is on disk then.
func (h *historyFiles) drop(path string, ds int, remove bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.files[ds].Close()
	h.demand[ds].Close()
	delete(h.files, ds)
	delete(h.demand, ds)
	delete(h.absent, ds)
	delete(h.periods, ds)
	if remove {
		os.Remove(path)
		os.Remove(demandFilePath(path))
	}
}

// periodRecords returns dataset ds's period records, cached while no writer has taken the
// lock since they were read.
func (w *Warehouse) periodRecords(ctx context.Context, ds int) (periodRecords, error) {
	gen := w.writeGen.Load()
	w.hist.mu.RLock()
	p, ok := w.hist.periods[ds]
	w.hist.mu.RUnlock()
	if ok && p.gen == gen && gen%2 == 0 {
		return p, nil
	}
	rows, err := w.db.QueryContext(ctx, `select period_idx, imported_at, deepest_rank from period where dataset_id = ?`, ds)
	if err != nil {
		return p, err
	}
	defer rows.Close()
	p = periodRecords{gen: gen, imported: map[int]time.Time{}, deepest: map[int]int{}}
	for rows.Next() {
		var idx, deep int
		var at time.Time
		if err := rows.Scan(&idx, &at, &deep); err != nil {
			return p, err
		}
		p.imported[idx], p.deepest[idx] = at, deep
	}
	if err := rows.Err(); err != nil {
		return p, err
	}
	// Kept only when no writer held the lock while they were read.
	if gen%2 == 0 && w.writeGen.Load() == gen {
		w.hist.mu.Lock()
		w.hist.periods[ds] = p
		w.hist.mu.Unlock()
	}
	return p, nil
}

// holdsExactly says whether a file holding held holds exactly the periods, each from its
// current import.
func holdsExactly(held []histfile.Period, imported map[int]time.Time) bool {
	if len(held) != len(imported) {
		return false
	}
	for _, p := range held {
		at, ok := imported[int(p.Idx)]
		if !ok || at.UnixMicro() != p.ImportedAt {
			return false
		}
	}
	return true
}

// historiesFromFile answers TermHistoriesAt from the dataset's history file; false when the
// file cannot answer (none, damaged, or not holding the dataset's current periods).
func (w *Warehouse) historiesFromFile(ctx context.Context, d *Dataset, terms []string, at time.Time) ([]TermHistory, bool, error) {
	b, ok := w.blocksFromFile(ctx, d, terms)
	if !ok {
		return nil, false, nil
	}
	periods := make(map[int]bool, len(b.recs.imported))
	for idx := range b.recs.imported {
		periods[idx] = true
	}
	out, err := histories(d, terms, at, periods, b.recs.deepest, pointsOf(b.rows, b.names, b.terms))
	return out, true, err
}

// fileBlocks are terms' rows as a history file holds them.
type fileBlocks struct {
	rows  []factRow                      // by term, each term's by period
	terms map[int64]string               // the terms found, by id
	names map[string]map[int64][2]string // the names the rows use, by dictionary and id
	recs  periodRecords                  // the dataset's periods, which the file holds exactly
}

// blocksFromFile reads the terms' rows from the dataset's history file; false when the file
// cannot answer (none, damaged, or not holding the dataset's current periods). A term the
// dataset does not hold has no rows.
func (w *Warehouse) blocksFromFile(ctx context.Context, d *Dataset, terms []string) (*fileBlocks, bool) {
	recs, err := w.periodRecords(ctx, d.ID)
	if err != nil {
		return nil, false
	}
	path := historyFilePath(w.asinIndex, d.ID)
	w.hist.mu.RLock()
	f, damaged := w.hist.file(path, d.ID)
	if damaged {
		w.refreshHistoryFileLater(d.ID)
	}
	if f == nil || len(recs.imported) == 0 || !holdsExactly(f.Periods(), recs.imported) {
		w.hist.mu.RUnlock()
		return nil, false
	}
	out := &fileBlocks{terms: map[int64]string{}, recs: recs,
		names: map[string]map[int64][2]string{"asin": {}, "brand": {}, "category": {}}}
	for _, term := range terms {
		b, err := f.Lookup(term)
		if err == nil && b != nil && !wellFormed(b) {
			err = errors.New("a row without its period or rank")
		}
		if err != nil {
			w.hist.mu.RUnlock()
			slog.Warn("trends: history file damaged; it will be rewritten", "dataset", d.ID, "err", err)
			w.hist.drop(path, d.ID, true)
			w.refreshHistoryFileLater(d.ID)
			return nil, false
		}
		if b == nil {
			continue
		}
		out.terms[b.TermID] = b.Term
		out.rows = slices.Grow(out.rows, len(b.Rows))
		for _, r := range b.Rows {
			out.rows = append(out.rows, rowFromBlock(b.TermID, r))
		}
		for k, kind := range []string{"asin", "brand", "category"} {
			for _, n := range b.Names[k] {
				out.names[kind][n.ID] = [2]string{n.Name, n.Title}
			}
		}
	}
	w.hist.mu.RUnlock()
	return out, true
}

// wellFormed says whether every row of the block has its period index and rank.
func wellFormed(b *histfile.Block) bool {
	for _, r := range b.Rows {
		if r.Values[0] == nil || r.Values[1] == nil {
			return false
		}
	}
	return true
}

// blockColumns are the values of a factRow a block stores, after the term id.
const blockColumns = 17

// rowFromBlock is the factRow a block's row holds.
func rowFromBlock(termID int64, r histfile.Row) factRow {
	v := r.Values
	n := func(i int) sql.NullInt64 {
		if v[i] == nil {
			return sql.NullInt64{}
		}
		return sql.NullInt64{Int64: *v[i], Valid: true}
	}
	f := factRow{termID: termID, idx: int(*v[0]), rank: int(*v[1])}
	for k := range 3 {
		f.asin[k], f.click[k], f.conv[k], f.brand[k], f.cat[k] = n(2+k), n(5+k), n(8+k), n(11+k), n(14+k)
	}
	return f
}

// blockRow is the block row of a factRow (rowFromBlock's inverse).
func blockRow(f *factRow) histfile.Row {
	v := make([]*int64, blockColumns)
	idx, rank := int64(f.idx), int64(f.rank)
	v[0], v[1] = &idx, &rank
	for k := range 3 {
		for i, c := range []*sql.NullInt64{&f.asin[k], &f.click[k], &f.conv[k], &f.brand[k], &f.cat[k]} {
			if c.Valid {
				v[2+3*i+k] = &c.Int64
			}
		}
	}
	return histfile.Row{Values: v}
}

// removeHistoryFiles removes the history files of deleted datasets.
func (w *Warehouse) removeHistoryFiles(sets []Dataset) {
	for _, d := range sets {
		w.hist.drop(historyFilePath(w.asinIndex, d.ID), d.ID, true)
	}
}

// removeStaleHistoryTemps removes the temporary files of history files being written when a
// process was killed (only this process has the store open).
func removeStaleHistoryTemps(asinIdx string) {
	base := strings.TrimSuffix(asinIdx, "-asins.idx")
	hist, _ := filepath.Glob(base + "-history-*.hist.*.tmp")
	demand, _ := filepath.Glob(base + "-history-*.demand.*.tmp")
	for _, m := range append(hist, demand...) {
		os.Remove(m)
	}
}

// closeAll closes every open file (Close).
func (h *historyFiles) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ds, f := range h.files {
		f.Close()
		delete(h.files, ds)
	}
	for ds, f := range h.demand {
		f.Close()
		delete(h.demand, ds)
	}
}
