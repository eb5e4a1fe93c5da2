package warehouse

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// sqlRunner is what both the import's connection and its transaction offer: the import builds
// its temporary tables on the connection before the transaction and writes the store in it.
type sqlRunner interface {
	reader
	execer
}

// step is one statement of an import, named for its log line and errors.
type step struct {
	what string
	q    string
	args []any
}

func (s step) run(ctx context.Context, db execer) error {
	start := time.Now()
	if _, err := db.ExecContext(ctx, s.q, s.args...); err != nil {
		return fmt.Errorf("import: %s: %w", s.what, err)
	}
	slog.Debug("import step", "step", s.what, "took", time.Since(start))
	return nil
}

// lookUpASINs fills ids (rid, slot, id) with the dictionary id of every staged product cell
// whose ASIN the dictionary holds, and newCells (rid, slot, a) with the others. Cells the ASIN
// index found while they were staged (asin_idN set) are not looked up again, and the others
// only among the ids above after (-1: all of them; the index holds every code up to it).
//
// The dictionary lookups go in slices by range, so a week's cells need not all be hashed at
// once (cellsPerSlice). Each slice looks its cells up once and records each known cell's id by
// (staging row, slot), so the fact insert joins on integers: three string joins against the
// dictionary built three hash tables of 15M entries (5 s of a 3M-row import). Slices are
// ranges of ASINs, cut where a sample of the cells' ASINs says: comparing ASINs (short strings
// DuckDB stores inline) costs a third of hashing them, and the dictionary is read once per
// slice. Titles stay out of the lookups (carrying them through the joins cost 40% of this
// step); new ASINs get theirs afterwards (numberNewASINs).
func lookUpASINs(ctx context.Context, db sqlRunner, stage, ids, newCells string, after int64) error {
	err := step{"asin ids", `create temp table ` + ids + ` (rid bigint not null, slot tinyint not null, id integer not null);
		create temp table ` + newCells + ` (rid bigint not null, slot tinyint not null, a varchar not null)`, nil}.run(ctx, db)
	if err != nil {
		return err
	}
	// cells is what the dictionary is asked about: (rid, slot, a).
	cells := fmt.Sprintf(`(select ord rid, 1::tinyint slot, asin1 a from %[1]s where asin1 is not null and asin_id1 is null
		union all select ord, 2::tinyint, asin2 from %[1]s where asin2 is not null and asin_id2 is null
		union all select ord, 3::tinyint, asin3 from %[1]s where asin3 is not null and asin_id3 is null)`, stage)
	bounds, err := asinBounds(ctx, db, cells, cellsPerSlice)
	if err != nil {
		return fmt.Errorf("import: asin slices: %w", err)
	}
	look := ids + "_look"
	for part := range len(bounds) + 1 {
		cc, ac := asinRange("a", bounds, part)
		cd, ad := asinRange("asin", bounds, part)
		slice := step{fmt.Sprintf("asins %d/%d", part+1, len(bounds)+1), fmt.Sprintf(`create or replace temp table %[2]s as
			select s.rid, s.slot, s.a, x.id from (select rid, slot, a from %[1]s where %[3]s) s
			left join (select id, asin from asin where %[4]s and id > ?) x on x.asin = s.a`, cells, look, cc, cd), slices.Concat(ac, ad, []any{after})}
		// A statement with arguments runs alone (the driver binds them to one statement).
		record := step{"asin ids", fmt.Sprintf(`insert into %[2]s select rid, slot, id from %[1]s where id is not null;
			insert into %[3]s select rid, slot, a from %[1]s where id is null; drop table %[1]s`, look, ids, newCells), nil}
		for _, s := range []step{slice, record} {
			if err := s.run(ctx, db); err != nil {
				return err
			}
		}
	}
	return nil
}

// cellsPerSlice is about how many cells one dictionary slice looks up: 2 slices for the 7.8M
// cells of a 2.67M-term week. Each slice reads the whole dictionary again, so fewer are
// faster: on machine P the lookups took 1.65–1.75 s in 2 slices, 1.70 s in 1 and 2.0 s in 4,
// with peak RSS 1.49, 1.57–1.77 and 1.51 GB at a 1 GB DuckDB limit.
var cellsPerSlice = 4_000_000 // tests make it small

// asinBounds returns the ASINs that cut the cells' ASINs (the a column of cells) into about
// equal ranges of at most about perSlice cells, read from a sample of them.
func asinBounds(ctx context.Context, db sqlRunner, cells string, perSlice int) ([]string, error) {
	var n int
	if err := db.QueryRowContext(ctx, `select count(*) from `+cells).Scan(&n); err != nil {
		return nil, err
	}
	parts := (n + perSlice - 1) / perSlice
	if parts <= 1 {
		return nil, nil
	}
	sample, err := queryColumn[string](ctx, db, `select a from `+cells+` using sample reservoir(10000 rows) repeatable (7) order by a`)
	if err != nil {
		return nil, err
	}
	var bounds []string
	for k := 1; k < parts && len(sample) > 0; k++ {
		if b := sample[k*len(sample)/parts]; len(bounds) == 0 || b > bounds[len(bounds)-1] {
			bounds = append(bounds, b)
		}
	}
	return bounds, nil
}

// asinRange is the condition that col (an ASIN column) is in slice part of bounds, with its
// arguments.
func asinRange(col string, bounds []string, part int) (string, []any) {
	cond, args := "true", []any{}
	if part > 0 {
		cond, args = cond+" and "+col+" >= ?", append(args, bounds[part-1])
	}
	if part < len(bounds) {
		cond, args = cond+" and "+col+" < ?", append(args, bounds[part])
	}
	return cond, args
}
