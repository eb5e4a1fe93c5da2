package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// comparePostgres loads the same terms and precomputed measures into the local PostgreSQL with
// COPY and sensible indexes, asks the same questions there, and returns each question's p50 in
// milliseconds. The schema is dropped afterwards. Of the fact rows it loads only those of the
// terms whose history is asked (every period of each): a B-tree lookup hardly depends on the
// table's size, and the full 468M rows would take PostgreSQL hours and ~40 GB here. That favours
// PostgreSQL (its sample stays in cache), so the speed-up printed for history is conservative.
func comparePostgres(ctx context.Context, wh *warehouse.Warehouse, dir, url string, ds int, names []string, subs []string) (map[string]float64, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	schema := fmt.Sprintf("trends_bench_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "create schema "+schema+"; set search_path = "+schema); err != nil {
		return nil, err
	}
	defer conn.Exec(context.Background(), "drop schema "+schema+" cascade")
	for _, q := range []string{
		`create table term (id integer, term text)`,
		`create table fact (term_id integer, period_idx integer, rank integer, asin1 integer, asin2 integer, asin3 integer, click1 smallint, click2 smallint, click3 smallint, conv1 smallint, conv2 smallint, conv3 smallint)`,
		`create table stats (term_id integer, term text, rank integer, ch_4 double precision, is_new boolean, breakout boolean, coming_up double precision)`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return nil, err
		}
	}
	ids, err := termIDs(ctx, wh, ds, names)
	if err != nil {
		return nil, err
	}
	exports := map[string]string{
		"term":  fmt.Sprintf(`select id, term from term where dataset_id = %d`, ds),
		"fact":  fmt.Sprintf(`select term_id, period_idx, rank, asin1, asin2, asin3, click1, click2, click3, conv1, conv2, conv3 from fact where dataset_id = %d and term_id in (%s)`, ds, ids),
		"stats": fmt.Sprintf(`select term_id, term, rank, log2(rank_4 / rank) as ch_4, is_new, breakout, coming_up from term_stats where dataset_id = %d`, ds),
	}
	start := time.Now()
	for table, q := range exports {
		file := filepath.Join(dir, table+".csv")
		if _, err := wh.DB().ExecContext(ctx, fmt.Sprintf(`copy (%s) to '%s' (header false)`, q, file)); err != nil {
			return nil, err
		}
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		_, err = conn.PgConn().CopyFrom(ctx, f, "copy "+table+" from stdin (format csv)")
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("copy %s: %w", table, err)
		}
	}
	for _, q := range []string{
		`create index on term (term)`, `create index on fact (term_id, period_idx)`,
		`create index on stats (ch_4 desc nulls last)`, `create index on stats (rank)`, `analyze`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return nil, err
		}
	}
	fmt.Printf("PostgreSQL load (COPY + indexes): %s\n", time.Since(start).Round(time.Millisecond))
	p50 := map[string]float64{}
	i := 0
	p50["history"] = medianMS(100, func() error {
		i++
		_, err := query(ctx, conn, `select f.period_idx, f.rank, f.asin1, f.click1 from fact f where f.term_id = (select id from term where term = $1) order by f.period_idx`, names[i%len(names)])
		return err
	})
	p50["explore"] = medianMS(40, func() error {
		i++
		s := "%" + subs[i%len(subs)] + "%"
		if _, err := query(ctx, conn, `select count(*) from stats where term ilike $1`, s); err != nil {
			return err
		}
		_, err := query(ctx, conn, `select term, rank, ch_4 from stats where term ilike $1 order by ch_4 desc nulls last, term_id limit 100`, s)
		return err
	})
	p50["overview"] = medianMS(20, func() error {
		for _, where := range []string{"ch_4 > 0", "ch_4 < 0", "is_new", "breakout", "coming_up > 0"} {
			if _, err := query(ctx, conn, `select term, rank, ch_4 from stats where `+where+` order by ch_4 desc nulls last, term_id limit 10`); err != nil {
				return err
			}
		}
		return nil
	})
	return p50, nil
}

// termIDs lists the ids of the named terms, comma-separated, for an inline IN list.
func termIDs(ctx context.Context, wh *warehouse.Warehouse, ds int, names []string) (string, error) {
	rows, err := wh.DB().QueryContext(ctx, `select id from term where dataset_id = ? and term in (select unnest(?::varchar[]))`, ds, names)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return "", err
		}
		ids = append(ids, strconv.Itoa(id))
	}
	return strings.Join(ids, ","), rows.Err()
}

func query(ctx context.Context, conn *pgx.Conn, q string, args ...any) (int, error) {
	rows, err := conn.Query(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	return n, rows.Err()
}
