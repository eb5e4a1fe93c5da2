package warehouse

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"sync"

	"github.com/sellertrends/sellertrends/internal/trends/asinindex"
)

// codeIndex is the ASIN index as product pages use it: opened and checked against the
// dictionary once, and again only when the file on disk is another one (the background job
// renames a new one into place after imports that bring new products; a file changed in
// place is opened again too). Opening and checking cost ~66 ms on the 3M x 156 set, a lookup
// microseconds. It is read on demand (asinindex.File), not into memory as imports read it:
// held open for the server's life, the copy in memory was 137 MB of the ~1 GB the server
// used while answering. An index stays true for every code it holds however far the
// dictionary grows (asin_index.go), so an older one is never wrong: it only leaves more
// codes to DuckDB.
type codeIndex struct {
	mu    sync.Mutex
	x     *asinindex.File
	after int64       // the id past which the dictionary must be searched (asinIndexFor.after)
	file  os.FileInfo // the file x was opened from; nil before the first open
}

// lookUp returns code's id when the index holds it, and the id past which the dictionary must
// be searched when it does not (-1: all of it).
func (c *codeIndex) lookUp(ctx context.Context, w *Warehouse, code string) (id int32, found bool, after int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, err := os.Stat(w.asinIndex)
	if err != nil {
		c.close()
		return 0, false, -1
	}
	if c.file == nil || !os.SameFile(c.file, st) || c.file.Size() != st.Size() || !c.file.ModTime().Equal(st.ModTime()) {
		c.close()
		c.open(ctx, w)
		c.file = st
	}
	if c.x == nil {
		return 0, false, -1
	}
	id, found, err = c.x.Lookup(code)
	if err != nil {
		slog.Warn("trends: ASIN index lookup failed", "err", err)
		return 0, false, -1
	}
	return id, found, c.after
}

// open opens the store's index for lookups on demand and checks it against the dictionary;
// x stays nil when there is none or it must not be used.
func (c *codeIndex) open(ctx context.Context, w *Warehouse) {
	x, err := asinindex.OpenFile(w.asinIndex)
	if err != nil {
		w.indexNotUsed(err)
		return
	}
	after, ok := w.indexAfter(ctx, w.db, x.Coverage(), x.Len())
	if !ok {
		x.Close()
		return
	}
	c.x, c.after = x, after
}

// close closes the index; the next lookup opens the file again.
func (c *codeIndex) close() {
	c.x.Close()
	c.x, c.file = nil, nil
}

// asinOf finds a product code's id and title in the ASIN dictionary, through the ASIN index
// when it holds the code: searching the dictionary's codes took ~190 ms of a product page's
// ~200 on the 3M x 156 set (15M ASINs), where the index and a read of one id by its zone maps
// take about a millisecond. Codes the index lacks are searched for only among the ids past the
// index's (all of them without one).
func (w *Warehouse) asinOf(ctx context.Context, code string) (id int, title sql.NullString, err error) {
	found, ok, after := w.codes.lookUp(ctx, w, code)
	if ok {
		err = w.db.QueryRowContext(ctx, `select title from asin where id = ?`, found).Scan(&title)
		return int(found), title, err
	}
	err = w.db.QueryRowContext(ctx, `select id, title from asin where asin = ? and id > ?`, code, after).Scan(&id, &title)
	return id, title, err
}
