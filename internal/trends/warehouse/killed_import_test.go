package warehouse

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// bigWeek generates n rows lazily, so the child process is still importing when it is killed.
type bigWeek struct {
	meta report.Meta
	n, i int
}

func (b *bigWeek) Meta() report.Meta { return b.meta }
func (b *bigWeek) Next() (report.Row, error) {
	if b.i >= b.n {
		return report.Row{}, io.EOF
	}
	b.i++
	return report.Row{Line: b.i + 2, Term: fmt.Sprintf("generated term %d", b.i), Rank: int32(b.i)}, nil
}

const killChildEnv = "WAREHOUSE_KILLED_IMPORT_STORE"

// A process killed (SIGKILL) in the middle of an import leaves the store exactly as it was:
// same periods, facts and measures, and no staging table once the store is opened again.
func TestKilledImportLeavesNoTrace(t *testing.T) {
	if path := os.Getenv(killChildEnv); path != "" {
		importUntilKilled(t, path, os.Getenv(killChildEnv+"_BASELINE") != "")
		return
	}
	path := filepath.Join(t.TempDir(), "k.duckdb")
	// The baseline is written by a child that exits normally, so this process never holds the
	// file while the second child imports into it.
	baseline := exec.Command(os.Args[0], "-test.run=^TestKilledImportLeavesNoTrace$")
	baseline.Env = append(os.Environ(), killChildEnv+"="+path, killChildEnv+"_BASELINE=1")
	if out, err := baseline.CombinedOutput(); err != nil {
		t.Fatalf("baseline: %v\n%s", err, out)
	}
	w, err := OpenFile(context.Background(), path, "512MB")
	if err != nil {
		t.Fatal(err)
	}
	before := counts(t, w)
	w.Close()
	if before[1] != 1 {
		t.Fatalf("baseline has %d periods", before[1])
	}

	child := exec.Command(os.Args[0], "-test.run=^TestKilledImportLeavesNoTrace$")
	child.Env = append(os.Environ(), killChildEnv+"="+path)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	staging, seen := false, ""
	for sc := bufio.NewScanner(out); sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "staged ") {
			staging = true
			break
		}
		seen += sc.Text() + "\n"
	}
	child.Process.Kill()
	child.Wait()
	if !staging {
		t.Fatalf("the child never reported staging progress:\n%s", seen)
	}
	// The kill left the staging's Parquet files next to the store; they, and a CSV staging
	// file an earlier version left, are removed when the store is next opened.
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "stage_*.parquet")); len(left) == 0 {
		t.Fatal("the killed import left no staging file to clean up")
	}
	stale := filepath.Join(filepath.Dir(path), "stage_0123456789abcdef-42.csv")
	if err := os.WriteFile(stale, []byte("left by a killed import\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	w, err = OpenFile(context.Background(), path, "512MB")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if after := counts(t, w); after != before {
		t.Errorf("the killed import left traces: %v -> %v", before, after)
	}
	var stages int
	w.db.QueryRow(`select count(*) from duckdb_tables() where table_name like 'stage%'`).Scan(&stages)
	if stages != 0 {
		t.Errorf("%d staging tables left after reopening", stages)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "stage_*")); len(left) != 0 {
		t.Errorf("staging files left after reopening: %v", left)
	}
	d := dataset(t, w, "ws")
	if d.Periods != 1 {
		t.Errorf("periods %d, want 1", d.Periods)
	}
}

// importUntilKilled is the child: it writes the baseline (one small week) and exits, or imports a
// large week and says when staging is under way.
func importUntilKilled(t *testing.T, path string, baseline bool) {
	w, err := OpenFile(context.Background(), path, "512MB")
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	if baseline {
		load(t, w, "ws", week(0, map[string]int{"a": 1, "b": 2}))
		w.Close()
		os.Exit(0)
	}
	src := &bigWeek{meta: week(1, nil).meta, n: 50_000_000}
	_, err = w.Import(context.Background(), src, ImportOptions{Workspace: "ws", ImportedBy: "child", Progress: func(rows int64) {
		if rows >= 100_000 {
			fmt.Printf("staged %d\n", rows)
			os.Stdout.Sync()
		}
	}})
	fmt.Println("import ended:", err) // not reached: the parent kills us first
	os.Exit(0)
}

// When DuckDB fails to load the staging files, the import fails with DuckDB's error and
// leaves no file behind.
func TestStagingLoadFails(t *testing.T) {
	w := openTemp(t)
	saved := loadStage
	loadStage = func(context.Context, *sql.Conn, string, []string) error { return errors.New("duckdb refused") }
	defer func() { loadStage = saved }()
	src := &bigWeek{n: 200_000, meta: report.Meta{Layout: report.LayoutAmazonTST, Marketplace: "amazon.com", Name: "load fails",
		Period: report.Period{Kind: report.Week, Start: week0, End: week0.AddDate(0, 0, 6)}}}
	_, err := w.Import(context.Background(), src, ImportOptions{Workspace: "ws", ImportedBy: "t"})
	if err == nil || !strings.Contains(err.Error(), "duckdb refused") {
		t.Fatalf("import error %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(w.dir, "stage_*")); len(left) != 0 {
		t.Fatalf("staging files left: %v", left)
	}
}
