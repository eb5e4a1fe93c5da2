package warehouse

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// titleSpill keeps the staged rows' product titles out of DuckDB. Titles are ~40% of a
// report's bytes, and only a new ASIN's title is ever stored (most of a week's ASINs are
// known already), so staging them cost DuckDB almost half its reading of the staged rows
// (4.3–5.8 s against 2.5–2.9 s for a 2.67M-row week without them, measured side by side).
// Instead each batch's titles are appended to a file next to the store, and the import reads
// back the few it needs by row ordinal once it knows which ASINs are new.
//
// A batch's record is, per row, three length-prefixed titles; batches land in the file in
// whichever order the writers finish them, so the index keeps each batch's start.
type titleSpill struct {
	f     *os.File
	named string // the file's name while it must be removed at the end ("" once unlinked)

	mu      sync.Mutex
	size    int64
	batches map[int]spillBatch // by the batch's first ordinal
}

// spillBatch locates one batch's rows: row i starts at start+rel[i].
type spillBatch struct {
	start int64
	rel   []uint32
}

func newTitleSpill(dir, stage string) (*titleSpill, error) {
	f, err := os.CreateTemp(dir, stage+"-titles-*.csv")
	if err != nil {
		return nil, fmt.Errorf("import: title spill: %w", err)
	}
	s := &titleSpill{f: f, named: f.Name(), batches: map[int]spillBatch{}}
	// Unlinked at once where the system allows it, so a killed import leaves nothing behind;
	// elsewhere the name matches what dropStaleStaging removes on the next open.
	if os.Remove(f.Name()) == nil {
		s.named = ""
	}
	return s, nil
}

// add appends one batch's titles; first is the ordinal of its first row, and known[3*i+k] is
// row i's product k's id in the ASIN index (-1 when not found there). A product the index
// knows is in the dictionary already, so its title is never read back: it is spilled empty
// (a week's 7.8M titles were ~0.4 CPU-seconds and 280 MB written). Safe for concurrent use:
// each batch takes its place in the file under the lock and writes it outside it.
func (s *titleSpill) add(first int, rows []report.Row, known []int32) error {
	buf := make([]byte, 0, len(rows)*96)
	rel := make([]uint32, len(rows))
	for i := range rows {
		rel[i] = uint32(len(buf))
		for k, p := range rows[i].Products {
			title := p.Title
			if known[3*i+k] >= 0 {
				title = ""
			}
			buf = binary.AppendUvarint(buf, uint64(len(title)))
			buf = append(buf, title...)
		}
	}
	s.mu.Lock()
	start := s.size
	s.size += int64(len(buf))
	s.batches[first] = spillBatch{start: start, rel: rel}
	s.mu.Unlock()
	if _, err := s.f.WriteAt(buf, start); err != nil {
		return fmt.Errorf("import: title spill: %w", err)
	}
	return nil
}

// reader reads titles back; one reader serves a whole pass, lookups in any order.
func (s *titleSpill) reader() *spillReader {
	return &spillReader{s: s, br: bufio.NewReaderSize(nil, 4096)}
}

type spillReader struct {
	s  *titleSpill
	br *bufio.Reader
}

// title returns the title of product slot (1..3) of the row with ordinal ord.
func (r *spillReader) title(ord, slot int) (string, error) {
	first := ord - ord%stageBatch
	b, ok := r.s.batches[first]
	if !ok || ord-first >= len(b.rel) || slot < 1 || slot > 3 {
		return "", fmt.Errorf("import: title spill: no row %d", ord)
	}
	r.br.Reset(io.NewSectionReader(r.s.f, b.start+int64(b.rel[ord-first]), 1<<62))
	var title []byte
	for range slot {
		n, err := binary.ReadUvarint(r.br)
		if err != nil {
			return "", fmt.Errorf("import: title spill: %w", err)
		}
		if uint64(cap(title)) < n {
			title = make([]byte, n)
		}
		title = title[:n]
		if _, err := io.ReadFull(r.br, title); err != nil {
			return "", fmt.Errorf("import: title spill: %w", err)
		}
	}
	return string(title), nil
}

func (s *titleSpill) close() {
	s.f.Close()
	if s.named != "" {
		os.Remove(s.named)
	}
}

// numberNewASINs numbers the report's new ASINs into the table fresh (id, a, t), with their
// titles, and records their cells' ids in ids (rid, slot, id). newCells holds the cells whose
// ASIN the dictionary lacks (rid, slot, a); each new ASIN takes its title from its first cell
// in the report, read back from the spill. It runs before the import's transaction, which
// adds fresh to the dictionary (addNewASINs); the writer lock keeps the dictionary's largest
// id as it is until then.
//
// titleOrds, when not "", is a table (rid, slot, ord) of cells whose title was spilled with
// another row's ordinal than their row's (merged SP-API fragments: checks.go).
func (w *Warehouse) numberNewASINs(ctx context.Context, db sqlRunner, stage, newCells, ids, fresh string, spill *titleSpill, titleOrds string) error {
	// A cell's row key is the row's ordinal (rid = ord), which its title was spilled under.
	ord, join := "n.rid", ""
	if titleOrds != "" {
		ord, join = "coalesce(o.ord, n.rid)", ` left join `+titleOrds+` o on o.rid = n.rid and o.slot = n.slot`
	}
	rows, err := db.QueryContext(ctx, `select n.a, min(`+ord+`) ord, arg_min(n.slot, `+ord+`) slot
		from `+newCells+` n`+join+` group by n.a order by ord`)
	if err != nil {
		return fmt.Errorf("import: new asins: %w", err)
	}
	defer rows.Close()
	err = w.loadCSV(ctx, db, stage+"-asins", `create temp table `+fresh+` as
		select coalesce((select max(id) from asin), 0) + row_number() over () as id, a, t from %s`,
		"{'a': 'VARCHAR', 't': 'VARCHAR'}", func(cw *csv.Writer) error {
			titles := spill.reader()
			for rows.Next() {
				var a string
				var ord, slot int
				if err := rows.Scan(&a, &ord, &slot); err != nil {
					return err
				}
				t, err := titles.title(ord, slot)
				if err != nil {
					return err
				}
				if err := cw.Write([]string{a, t}); err != nil {
					return err
				}
			}
			return rows.Err()
		})
	if err != nil {
		return fmt.Errorf("import: new asins: %w", err)
	}
	_, err = db.ExecContext(ctx, fmt.Sprintf(`insert into %[3]s select n.rid, n.slot, f.id from %[1]s n join %[2]s f on f.a = n.a;
		drop table %[1]s`, newCells, fresh, ids))
	if err != nil {
		return fmt.Errorf("import: new asins: %w", err)
	}
	return nil
}

// addNewASINs adds the ASINs numberNewASINs numbered (fresh) to the dictionary.
func addNewASINs(ctx context.Context, tx *sql.Tx, fresh string) error {
	if _, err := tx.ExecContext(ctx, `insert into asin select id, a, t from `+fresh+`; drop table `+fresh); err != nil {
		return fmt.Errorf("import: new asins: %w", err)
	}
	return nil
}

// loadCSV writes rows with write to a CSV file next to the store and runs query (a statement
// with one %s, where read_csv of that file with the given columns goes) on db.
func (w *Warehouse) loadCSV(ctx context.Context, db execer, prefix, query, columns string, write func(*csv.Writer) error) error {
	f, err := os.CreateTemp(w.dir, prefix+"-*.csv")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	cw := csv.NewWriter(bw)
	if err := write(cw); err != nil {
		return err
	}
	if cw.Flush(); cw.Error() != nil {
		return cw.Error()
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, fmt.Sprintf(query, readCSV("?", columns)), f.Name())
	return err
}
