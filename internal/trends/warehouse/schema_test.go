package warehouse

import (
	"context"
	"path/filepath"
	"testing"
)

// A store whose term_stats was written compressed (before termStatsColumns) gets the
// uncompressed table on open, with every row kept.
func TestOpenUncompressesAnOlderTermStats(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	w, err := OpenFile(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	importFiles(t, w, "ws", seriesFiles(t, 3)...)
	w.WaitBackground()
	// Rewrite term_stats as the earlier schema defined it (no compression clause).
	err = execAll(ctx, w.db,
		`create table term_stats_old as select * from term_stats`,
		`drop table term_stats`,
		`alter table term_stats_old rename to term_stats`,
		`delete from schema_marks`,
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
	if _, err := w.db.ExecContext(ctx, `checkpoint`); err != nil {
		t.Fatal(err)
	}
	if got := uncompressedSegments(t, w); got == 0 {
		t.Fatal("ch_1 is not stored uncompressed after the migration")
	}
}

func termStatsDigest(t *testing.T, w *Warehouse) string {
	t.Helper()
	var d string
	err := w.db.QueryRow(`select count(*) || ':' || hash(string_agg(term_stats::varchar, '|' order by dataset_id, term_id)) from term_stats`).Scan(&d)
	if err != nil {
		t.Fatal(err)
	}
	return d
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
