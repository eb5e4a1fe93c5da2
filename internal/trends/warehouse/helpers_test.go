package warehouse

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

func openTemp(t *testing.T) *Warehouse {
	t.Helper()
	w := openAt(t, filepath.Join(t.TempDir(), "t.duckdb"))
	t.Cleanup(func() { closeChecked(t, w) })
	return w
}

// openAt opens the store at path with a 512 MB memory limit; the caller closes it.
func openAt(t *testing.T, path string) *Warehouse {
	t.Helper()
	w, err := OpenFile(context.Background(), path, "512MB")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// closeChecked closes the warehouse and fails if a connection outlived it: DuckDB keeps a
// database with a live connection open, and opening its file again in the process then spins.
func closeChecked(t *testing.T, w *Warehouse) {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if n := w.db.Stats().OpenConnections; n != 0 {
		t.Errorf("%d DuckDB connections still open after Close", n)
	}
}

// importFiles imports sample files in order into workspace ws and returns the last record.
func importFiles(t *testing.T, w *Warehouse, ws string, files ...string) *PeriodRecord {
	t.Helper()
	var rec *PeriodRecord
	for _, f := range files {
		srcs, err := report.Open(f, report.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err = w.Import(context.Background(), srcs[0], ImportOptions{Workspace: ws, ImportedBy: "test"})
		srcs[0].Close()
		if err != nil {
			t.Fatalf("import %s: %v", f, err)
		}
	}
	return rec
}

func seriesFiles(t *testing.T, n int) []string {
	files, _ := filepath.Glob("testdata/US_Top_Search_Terms_Simple_Week_*.csv")
	sort.Strings(files)
	if len(files) != 8 {
		t.Fatalf("want the 8 weekly samples, found %d", len(files))
	}
	return files[:n]
}
