package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"strings"

	"github.com/sellertrends/sellertrends/internal/trends/asinindex"
)

// The ASIN index (package asinindex) is a file beside the store that maps each product code of
// the ASIN dictionary to its id, so an import numbers a report's products while it stages them
// and DuckDB only looks up the few cells the index lacks (asin_lookup.go). The dictionary only
// grows and its ids never change, so an index is true for every code it holds however far the
// dictionary has grown since: the background job extends it after imports, and an import uses
// whatever index it finds, checked against the dictionary first.

// asinIndexPath is where the index of the store at path lives.
func asinIndexPath(path string) string { return strings.TrimSuffix(path, ".duckdb") + "-asins.idx" }

// asinIndexChunk is how many dictionary entries one extension of the index adds at most, so
// building it for a large dictionary holds a bounded number of them in memory.
var asinIndexChunk = 2_000_000 // tests make it small

// asinIndexFor is the index an import may use, with the dictionary id past which codes may
// have been added since it was written; nil when there is none, or it was built from another
// dictionary (a store restored from a backup beside a newer index) or is damaged.
type asinIndexFor struct {
	*asinindex.Index
	// after is the largest id whose code the index holds, when no code the index cannot hold
	// (Key refuses it) is in the dictionary up to there; -1 otherwise. Cells the index does
	// not find are looked up among the ids above it.
	after int64
}

// close unmaps the index; a nil one may be closed, and closing twice does nothing.
func (a *asinIndexFor) close() {
	if a != nil {
		a.Index.Close()
	}
}

// lookUpAfter is the id above which the dictionary must be searched for the cells the index did
// not find: after, or -1 (the whole dictionary) without an index.
func (a *asinIndexFor) lookUpAfter() int64 {
	if a == nil {
		return -1
	}
	return a.after
}

// lookUpAll sets ids[i] to codes[i]'s id, or -1 when the index lacks it or there is none.
func (a *asinIndexFor) lookUpAll(codes []string, ids []int32) {
	if a == nil {
		for i := range ids[:len(codes)] {
			ids[i] = -1
		}
		return
	}
	a.LookupAll(codes, ids)
}

// openASINIndex opens the store's ASIN index and checks it against the dictionary as q sees it.
func (w *Warehouse) openASINIndex(ctx context.Context, q queryer) *asinIndexFor {
	x, err := asinindex.Open(w.asinIndex)
	if err != nil {
		w.indexNotUsed(err)
		return nil
	}
	after, ok := w.indexAfter(ctx, q, x.Coverage(), x.Len())
	if !ok {
		x.Close()
		return nil
	}
	return &asinIndexFor{x, after}
}

// indexNotUsed logs why the index file could not be opened (unless there is none).
func (w *Warehouse) indexNotUsed(err error) {
	if !errors.Is(err, os.ErrNotExist) {
		slog.Warn("trends: ASIN index not used", "err", err)
		w.asinIndexBad.Store(true)
	}
}

// indexAfter checks an index of coverage cov holding n codes against the dictionary as q sees
// it, and returns the id past which the dictionary must be searched for codes it lacks (-1:
// all of it); false when the index must not be used.
func (w *Warehouse) indexAfter(ctx context.Context, q queryer, cov asinindex.Coverage, n int) (int64, bool) {
	ok, err := coversDictionary(ctx, q, cov)
	if err != nil || !ok {
		if err == nil {
			slog.Warn("trends: ASIN index not used: it was built from another dictionary")
			w.asinIndexBad.Store(true)
		} else if ctx.Err() == nil {
			slog.Warn("trends: ASIN index not used", "err", err)
		}
		return 0, false
	}
	if cov.Rows != int64(n) {
		return -1, true
	}
	return cov.MaxID, true
}

// coversDictionary says whether the dictionary holds, up to cov.MaxID, the entries an index of
// coverage cov was built from.
func coversDictionary(ctx context.Context, q queryer, cov asinindex.Coverage) (bool, error) {
	// Two statements: DuckDB prunes each by the id column's zone maps (1–2 ms at 15M ASINs),
	// where one with two FILTERed aggregates read every code (0.1 s).
	var rows int64
	if err := q.QueryRowContext(ctx, `select count(*) from asin where id <= ?`, cov.MaxID).Scan(&rows); err != nil {
		return false, err
	}
	if rows != cov.Rows || rows == 0 {
		return rows == cov.Rows, nil
	}
	var last string
	err := q.QueryRowContext(ctx, `select asin from asin where id = ?`, cov.MaxID).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil && asinindex.HashCode(last) == cov.LastHash, err
}

// RefreshASINIndex is refreshASINIndex for bulk loads that write the dictionary themselves
// (demo.BuildDirect); after imports the background job does it.
func (w *Warehouse) RefreshASINIndex(ctx context.Context) error { return w.refreshASINIndex(ctx) }

// refreshASINIndexLater runs refreshASINIndex in the background (ResumeCopies, when the server
// starts: an index lost or left behind by a restored store is rebuilt before imports need it).
func (w *Warehouse) refreshASINIndexLater() {
	w.bg.Add(1)
	go func() {
		defer w.bg.Done()
		if err := w.refreshASINIndex(w.bgCtx); err != nil && w.bgCtx.Err() == nil {
			slog.Error("trends: extending the ASIN index failed", "err", err)
		}
	}()
}

// refreshASINIndex extends the store's ASIN index to the whole dictionary, writing it anew
// when there is none or it does not match. It only reads the store, so it runs beside imports;
// each file it writes is complete and true, so stopping between chunks loses nothing.
func (w *Warehouse) refreshASINIndex(ctx context.Context) error {
	w.asinIndexMu.Lock()
	defer w.asinIndexMu.Unlock()
	// An import cancels the background job's context, but not these statements: each is short,
	// and a DuckDB statement cancelled as it starts can leave its connection in a state that
	// keeps the database open (warehouse.go: Close). Cancellation stops it between chunks.
	stop := ctx
	ctx = context.WithoutCancel(ctx)
	wroteAnew := false
	for {
		if err := stop.Err(); err != nil {
			return err
		}
		var newest sql.NullInt64
		if err := w.db.QueryRowContext(ctx, `select max(id) from asin`).Scan(&newest); err != nil {
			return err
		}
		if !newest.Valid {
			return nil
		}
		if w.asinIndexCurrent(ctx, newest.Int64) {
			return nil
		}
		cur := w.openASINIndex(ctx, w.db)
		// Written anew, the index starts below every id a dictionary can hold.
		from, rows := int64(math.MinInt32)-1, int64(0)
		if cur != nil {
			from, rows = cur.Coverage().MaxID, cur.Coverage().Rows
		} else if wroteAnew { // the file just written does not match: stop, not loop
			return errors.New("trends: ASIN index: the index just written does not match the dictionary")
		}
		if from >= newest.Int64 {
			cur.close()
			return nil
		}
		err := w.extendASINIndex(ctx, cur, from, rows)
		wroteAnew = cur == nil
		cur.close()
		if err != nil {
			return err
		}
	}
}

// asinIndexCurrent says, from the index file's header, whether the index covers the dictionary
// up to id newest, so it need not be read: an up-to-date index is the common case after an
// import that brought no new ASINs, and when the server starts. An import that found the file
// unusable sets asinIndexBad, so the next refresh reads (and rewrites) it whatever its header
// says.
func (w *Warehouse) asinIndexCurrent(ctx context.Context, newest int64) bool {
	if w.asinIndexBad.Swap(false) {
		return false
	}
	cov, err := asinindex.ReadCoverage(w.asinIndex)
	if err != nil || cov.MaxID < newest {
		return false
	}
	ok, err := coversDictionary(ctx, w.db, cov)
	return ok && err == nil
}

// extendASINIndex writes the index of cur's entries (none when cur is nil) and the
// dictionary's next entries after id from, at most asinIndexChunk of them; rows is how many
// entries have ids up to from.
func (w *Warehouse) extendASINIndex(ctx context.Context, cur *asinIndexFor, from, rows int64) error {
	// A range of ids, not an ORDER BY and LIMIT, which would sort the dictionary's tail.
	res, err := w.db.QueryContext(ctx, `select id, asin from asin
		where id > ? and id < (select min(id) from asin where id > ?) + ?`, from, from, asinIndexChunk)
	if err != nil {
		return err
	}
	defer res.Close()
	var added []asinindex.Pair
	cov := asinindex.Coverage{MaxID: from, Rows: rows}
	for res.Next() {
		var id int32
		var code string
		if err := res.Scan(&id, &code); err != nil {
			return err
		}
		// Ids start at 1 (staging writes 0 for "not found"); any other is left to DuckDB's lookup.
		if p, ok := asinindex.PairOf(code, id); ok && id > 0 {
			added = append(added, p)
		}
		cov.Rows++
		if int64(id) > cov.MaxID {
			cov.MaxID, cov.LastHash = int64(id), asinindex.HashCode(code)
		}
	}
	if err := res.Err(); err != nil {
		return err
	}
	var old *asinindex.Index
	if cur != nil {
		old = cur.Index
	}
	if err := asinindex.Write(w.asinIndex, old, added, cov); err != nil {
		return fmt.Errorf("trends: ASIN index: %w", err)
	}
	slog.Debug("trends: ASIN index extended", "to", cov.MaxID, "entries", cov.Rows)
	return nil
}
