package demo

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// BuildDirect writes the same model as Build (the same term specifications, shapes, scoring,
// churn and product hand-overs) straight into the warehouse tables with set-based SQL, one week
// per statement, instead of streaming every row through the import path. It exists for the
// benchmark set: 3M terms x 156 weeks is 468M rows, which the row-at-a-time path cannot write in
// reasonable time. The per-week noise comes from DuckDB's hash() instead of Go's PCG, so the
// ranks differ from Build's for the same seed, but they are just as deterministic.
func BuildDirect(ctx context.Context, wh *warehouse.Warehouse, workspace string, size Size, progress func(week, weeks int)) error {
	g := New(size)
	if exists, err := Exists(ctx, wh, workspace); err != nil || exists {
		return firstErr(err, fmt.Errorf("demo: workspace %q already has data", workspace))
	}
	ds, err := wh.EnsureDataset(ctx, workspace, "amazon.com", report.Week)
	if err != nil {
		return err
	}
	if err := g.writeWeeks(ctx, wh, ds, progress); err != nil {
		return err
	}
	if err := wh.RebuildStats(ctx, ds); err != nil {
		return err
	}
	if err := wh.RefreshASINIndex(ctx); err != nil {
		return err
	}
	return wh.Compact(ctx, ds)
}

// writeWeeks writes the dictionaries and every week as the store's one writer.
func (g *Generator) writeWeeks(ctx context.Context, wh *warehouse.Warehouse, ds int, progress func(week, weeks int)) error {
	defer wh.LockWriter(ctx)()
	conn, err := wh.DB().Conn(ctx) // temp tables and macros live on one connection
	if err != nil {
		return err
	}
	defer conn.Close()
	bases, err := g.writeDictionaries(ctx, conn, ds)
	if err != nil {
		return err
	}
	for w := range g.size.Weeks {
		if err := g.writeWeek(ctx, conn, ds, w, bases); err != nil {
			return fmt.Errorf("demo week %d: %w", w, err)
		}
		if progress != nil {
			progress(w+1, g.size.Weeks)
		}
	}
	_, err = conn.ExecContext(ctx, `drop table gen_term`)
	return err
}

// idBases are the dictionary ids just below this build's first ASIN, brand and category.
type idBases struct{ asin, brand, category int64 }

// writeDictionaries appends the term specifications to a temp table and fills the term, ASIN,
// brand and category dictionaries: ASIN k of term i gets id asin+5*(i-1)+k.
func (g *Generator) writeDictionaries(ctx context.Context, conn *sql.Conn, ds int) (idBases, error) {
	var b idBases
	for table, dst := range map[string]*int64{"asin": &b.asin, "brand": &b.brand, "category": &b.category} {
		if err := conn.QueryRowContext(ctx, `select coalesce(max(id), 0) from `+table).Scan(dst); err != nil {
			return b, err
		}
	}
	setup := []string{
		`create or replace temp table gen_term (id integer, term varchar, base double, shape tinyint, peak integer,
			strength double, start integer, flip integer, cat tinyint, brands tinyint[])`,
		`create or replace temp table gen_asin (id bigint, asin varchar, title varchar)`,
		`create or replace temp macro u(i, w, k) as (hash(i, w, k) % 1000003) / 1000003.0`,
	}
	for _, q := range setup {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return b, err
		}
	}
	err := conn.Raw(func(dc any) error {
		terms, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", "gen_term")
		if err != nil {
			return err
		}
		asins, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", "gen_asin")
		if err != nil {
			terms.Close()
			return err
		}
		for i := range g.terms {
			s := &g.terms[i]
			id := int32(i + 1)
			brandIdx := make([]int8, 5)
			for k := range 5 {
				brandIdx[k] = int8(s.brandIdx[k] + 1)
				if err == nil {
					err = asins.AppendRow(b.asin+int64(i)*5+int64(k)+1, s.asins[k], brands[s.brandIdx[k]]+" "+s.text)
				}
			}
			if err == nil {
				err = terms.AppendRow(id, s.text, s.base, int8(s.shape), int32(s.peakWeek), s.strength, int32(s.start), int32(s.flipWeek), int8(categoryIndex(s.category)), brandIdx)
			}
			if err != nil {
				break
			}
		}
		return firstErr(err, terms.Close(), asins.Close())
	})
	if err != nil {
		return b, fmt.Errorf("demo: spec table: %w", err)
	}
	fill := []struct {
		q    string
		args []any
	}{
		{`insert into term select ?, id, term from gen_term order by term`, []any{ds}},
		{`insert into asin select id, asin, title from gen_asin order by id`, nil},
		{`drop table gen_asin`, nil},
		{`insert into brand select ? + i, name from (select unnest(?::varchar[]) as name, generate_subscripts(?::varchar[], 1) as i)`, []any{b.brand, brands, brands}},
		{`insert into category select ? + i, name from (select unnest(?::varchar[]) as name, generate_subscripts(?::varchar[], 1) as i)`, []any{b.category, categories, categories}},
	}
	for _, f := range fill {
		if _, err := conn.ExecContext(ctx, f.q, f.args...); err != nil {
			return b, fmt.Errorf("demo: dictionaries: %w", err)
		}
	}
	return b, nil
}

func categoryIndex(name string) int {
	for i, c := range categories {
		if c == name {
			return i + 1
		}
	}
	return 0
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// weekSQL is score() and row() of demo.go as one statement: $1 dataset, $2 period index,
// $3 week number, $4 week of year, $5 churn threshold, $6 long-tail rank, $7..$9 id bases.
const weekSQL = `insert into fact
with scored as (
	select g.*, g.base * case g.shape
			when 1 then exp(g.strength * $3)
			when 2 then exp(-g.strength * $3)
			when 3 then 1 + g.strength * exp(-pow(least(abs($4 - g.peak), 52 - abs($4 - g.peak)), 2) / 8)
			when 4 then 1 + g.strength * exp(-pow(($3 - g.peak) * case when $3 > g.peak then 0.4 else 1 end, 2) / 6)
			else 1 end
		* exp(0.12 * 2 * (u(g.id, $3, 1) + u(g.id, $3, 2) + u(g.id, $3, 3) - 1.5)) as score
	from gen_term g
	where g.start <= $3 and not (g.base < $5 and u(g.id, $3, 4) < 0.15)),
ranked as (
	select id, cat, brands, row_number() over (order by score desc, id) as rank,
		case when $3 >= flip then [4, 1, 5, 2, 3] else [1, 2, 3, 4, 5] end as ord
	from scored),
shared as (
	select *, case when rank > $6 and u(id, $3, 5) < 1.0 / 3 then 1 + (u(id, $3, 6) < 0.5)::int else 3 end as slots,
		0.85 * (0.35 + u(id, $3, 7) * 0.25) as c1
	from ranked),
shared2 as (select *, (0.85 - c1) * (0.35 + u(id, $3, 8) * 0.25) as c2 from shared),
shared3 as (select *, (0.85 - c1 - c2) * (0.35 + u(id, $3, 9) * 0.25) as c3 from shared2)
select $1, $2, id, rank, null,
	$7 + 5 * (id - 1) + ord[1],
	case when slots >= 2 then $7 + 5 * (id - 1) + ord[2] end,
	case when slots >= 3 then $7 + 5 * (id - 1) + ord[3] end,
	round(c1 * 10000), case when slots >= 2 then round(c2 * 10000) end, case when slots >= 3 then round(c3 * 10000) end,
	round(least(1, c1 * (0.6 + u(id, $3, 10) * 0.8)) * 10000),
	case when slots >= 2 then round(least(1, c2 * (0.6 + u(id, $3, 11) * 0.8)) * 10000) end,
	case when slots >= 3 then round(least(1, c3 * (0.6 + u(id, $3, 12) * 0.8)) * 10000) end,
	$8 + brands[ord[1]], case when slots >= 2 then $8 + brands[ord[2]] end, case when slots >= 3 then $8 + brands[ord[3]] end,
	$9 + cat, null, null
from shared3 order by id`

const periodSQL = `insert into period select $1, $2, $3, $4, 'amazon-tst', $5, '', count(*), max(rank),
	count(*) filter (where asin1 is null),
	count(*) filter (where asin1 is not null and asin2 is null),
	count(*) filter (where asin2 is not null and asin3 is null),
	count(*) filter (where asin3 is not null), false, $6, 'demo generator'
	from fact where dataset_id = $1 and period_idx = $2`

// writeWeek writes week w's fact rows and its period record in one transaction.
func (g *Generator) writeWeek(ctx context.Context, conn *sql.Conn, ds, w int, b idBases) error {
	p := g.weeks[w]
	idx := warehouse.PeriodIndex(p)
	_, woy := p.End.ISOWeek()
	tx, err := conn.BeginTx(context.WithoutCancel(ctx), nil) // see warehouse.beginTx
	if err != nil {
		return err
	}
	defer tx.Rollback()
	churn := 1.0 / float64(g.size.Terms/2)
	if _, err := tx.ExecContext(ctx, weekSQL, ds, idx, w, woy, churn, g.size.Terms*3/4, b.asin, b.brand, b.category); err != nil {
		return err
	}
	name := fmt.Sprintf("demo_week_%s.csv", p.End.Format("2006_01_02"))
	if _, err := tx.ExecContext(ctx, periodSQL, ds, idx, p.Start, p.End, name, time.Now().UTC()); err != nil {
		return err
	}
	return tx.Commit()
}
