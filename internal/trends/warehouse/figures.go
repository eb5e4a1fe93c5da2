package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Figures are the trends store's counts and files an operator watches (the admin page).
type Figures struct {
	Datasets int        `json:"datasets"`
	Imports  int        `json:"importsLastDay"` // periods imported (or re-imported) since the time asked
	Files    []FileSize `json:"files"`          // the DuckDB files and their write-ahead logs
}

// FileSize is one file of the store.
type FileSize struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}

// Figures counts every workspace's datasets and the periods imported since since, and lists
// the DuckDB files beside the store with their sizes.
func (w *Warehouse) Figures(ctx context.Context, since time.Time) (Figures, error) {
	f := Figures{Files: []FileSize{}}
	err := w.db.QueryRowContext(ctx, `select (select count(*) from dataset), (select count(*) from period where imported_at >= ?)`,
		since.UTC()).Scan(&f.Datasets, &f.Imports)
	if err != nil || w.dir == "" {
		return f, err
	}
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return f, err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.Contains(e.Name(), ".duckdb") {
			continue
		}
		if info, err := os.Stat(filepath.Join(w.dir, e.Name())); err == nil {
			f.Files = append(f.Files, FileSize{Name: e.Name(), Bytes: info.Size()})
		}
	}
	return f, nil
}
