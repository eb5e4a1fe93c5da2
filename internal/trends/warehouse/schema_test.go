package warehouse

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A store whose term_stats was written compressed and without the ASIN's code (before
// termStatsColumns) gets the present table on open: every row kept, uncompressed, each with
// its top ASIN's code, and the overview lists chosen again.
func TestOpenUpgradesAnOlderTermStats(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w, err := OpenFile(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	importFiles(t, w, "ws", seriesFiles(t, 3)...)
	w.WaitBackground()
	// Rewrite term_stats and the overview lists as the earlier schema defined them (no
	// compression clause, no asin1_code).
	err = execAll(ctx, w.db,
		`create table term_stats_old as select * exclude (asin1_code) from term_stats`,
		`drop table term_stats`,
		`alter table term_stats_old rename to term_stats`,
		`drop table overview_rows`,
		`create table overview_rows as select ''::varchar as list, 0 as window_periods, 0 as pos, * from term_stats limit 0`,
		`checkpoint`)
	if err != nil {
		t.Fatal(err)
	}
	want := termStatsDigest(t, w)
	if got := uncompressedSegments(t, w); got != 0 {
		t.Fatalf("the old-style table already has %d uncompressed ch_1 segments", got)
	}
	closeChecked(t, w)

	w, err = OpenFile(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer closeChecked(t, w)
	if got := termStatsDigest(t, w); got != want {
		t.Fatalf("rows changed: %q, want %q", got, want)
	}
	checkASINCodes(t, w)
	lists, err := w.Overview(ctx, dataset(t, w, "ws"), 1)
	if err != nil || len(lists["risers"].Rows) == 0 || lists["risers"].Rows[0].TopASIN == "" {
		t.Fatalf("overview after the upgrade: %v, %+v", err, lists["risers"])
	}
	if _, err := w.db.ExecContext(ctx, `checkpoint`); err != nil {
		t.Fatal(err)
	}
	if got := uncompressedSegments(t, w); got == 0 {
		t.Fatal("ch_1 is not stored uncompressed after the migration")
	}
}

// termStatsDigest digests term_stats' rows, without the ASIN codes.
func termStatsDigest(t *testing.T, w *Warehouse) string {
	t.Helper()
	cols, err := queryColumn[string](context.Background(), w.db, `select column_name from duckdb_columns()
		where table_name = 'term_stats' and column_name <> 'asin1_code' order by column_index`)
	if err != nil {
		t.Fatal(err)
	}
	var d string
	err = w.db.QueryRow(`select count(*) || ':' || hash(string_agg(row(` + strings.Join(cols, ", ") + `)::varchar, '|' order by dataset_id, term_id)) from term_stats`).Scan(&d)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkASINCodes fails unless every term's stored top ASIN code is the one the dictionary
// gives its top ASIN's id, and some are set.
func checkASINCodes(t *testing.T, w *Warehouse) {
	t.Helper()
	var set, wrong int
	err := w.db.QueryRow(`select count(s.asin1_code), count(*) filter (where s.asin1_code is distinct from a.asin)
		from term_stats s left join asin a on a.id = s.asin1`).Scan(&set, &wrong)
	if err != nil || set == 0 || wrong > 0 {
		t.Fatalf("ASIN codes: %d set, %d wrong, %v", set, wrong, err)
	}
}

func uncompressedSegments(t *testing.T, w *Warehouse) int {
	t.Helper()
	var n int
	err := w.db.QueryRow(`select count(*) from pragma_storage_info('term_stats') where column_name = 'ch_1' and segment_type = 'DOUBLE' and lower(compression) = 'uncompressed'`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
