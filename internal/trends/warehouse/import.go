package warehouse

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// RowSource is what Import reads: a report.Source, or the demo generator.
type RowSource interface {
	Meta() report.Meta
	Next() (report.Row, error)
}

// ImportOptions say who imports what.
type ImportOptions struct {
	Workspace  string
	ImportedBy string
	SHA256     string // of the source file, recorded in the period record
	Lenient    bool   // drop duplicate terms (keeping the first) instead of failing
	SkipStats  bool   // bulk loads rebuild the measures once at the end (RebuildStats)
	// Progress is called every 50,000 rows with the rows staged so far.
	Progress func(rows int64)
}

// PeriodRecord is what the warehouse knows about one imported report.
type PeriodRecord struct {
	DatasetID   int           `json:"datasetId"`
	Period      report.Period `json:"period"`
	Layout      string        `json:"layout"`
	SourceName  string        `json:"sourceName"`
	SHA256      string        `json:"sha256"`
	Rows        int           `json:"rows"`
	DeepestRank int           `json:"deepestRank"`
	TermsWith   [4]int        `json:"termsWithProducts"` // terms with 0, 1, 2, 3 products
	Rolling     bool          `json:"rolling"`
	ImportedAt  time.Time     `json:"importedAt"`
	ImportedBy  string        `json:"importedBy"`
	Replaced    bool          `json:"replaced"`
	Warnings    []string      `json:"warnings"`
}

// Import stages the rows, checks them, and then in one transaction replaces the period and
// refreshes the measures: the period appears complete or not at all, and a failed or killed
// import leaves the dataset exactly as it was.
func (w *Warehouse) Import(ctx context.Context, src RowSource, opts ImportOptions) (*PeriodRecord, error) {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	meta := src.Meta()
	stage := "stage_" + randomHex(8)
	defer w.db.ExecContext(context.Background(), `drop table if exists `+stage)
	n, err := w.stageRows(ctx, stage, src, opts.Progress)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, &report.ParseError{Expected: "the report has no rows"}
	}
	warnings, err := w.checkDuplicates(ctx, stage, opts.Lenient)
	if err != nil {
		return nil, err
	}
	rec := &PeriodRecord{Period: meta.Period, Layout: string(meta.Layout), SourceName: meta.Name, SHA256: opts.SHA256,
		Rolling: meta.Rolling, ImportedAt: time.Now().UTC(), ImportedBy: opts.ImportedBy, Warnings: warnings}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if rec.DatasetID, err = ensureDataset(ctx, tx, opts.Workspace, meta.Marketplace, meta.Period.Kind); err != nil {
		return nil, err
	}
	if err := w.load(ctx, tx, stage, rec); err != nil {
		return nil, err
	}
	if !opts.SkipStats {
		if err := rebuildStats(ctx, tx, rec.DatasetID); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("import: commit: %w", err)
	}
	return rec, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

const stageColumns = `line integer, term varchar, rank integer, department varchar,
	asin1 varchar, title1 varchar, click1 smallint, conv1 smallint,
	asin2 varchar, title2 varchar, click2 smallint, conv2 smallint,
	asin3 varchar, title3 varchar, click3 smallint, conv3 smallint,
	brand1 varchar, brand2 varchar, brand3 varchar, cat1 varchar, cat2 varchar, cat3 varchar`

// stageRows streams the source into a staging table with DuckDB's appender (row-by-row INSERT
// would be ~1000x slower). Nothing of the file is held in Go memory beyond one row.
func (w *Warehouse) stageRows(ctx context.Context, stage string, src RowSource, progress func(int64)) (int64, error) {
	if _, err := w.db.ExecContext(ctx, `create table `+stage+` (`+stageColumns+`)`); err != nil {
		return 0, fmt.Errorf("import: stage: %w", err)
	}
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	var n int64
	err = conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", stage)
		if err != nil {
			return err
		}
		for {
			if err := ctx.Err(); err != nil {
				app.Close()
				return err
			}
			row, err := src.Next()
			if errors.Is(err, io.EOF) {
				return app.Close()
			}
			if err != nil {
				app.Close()
				return err
			}
			if err := app.AppendRow(stageValues(row)...); err != nil {
				app.Close()
				return fmt.Errorf("import: stage row at line %d: %w", row.Line, err)
			}
			if n++; progress != nil && n%50000 == 0 {
				progress(n)
			}
		}
	})
	if progress != nil {
		progress(n)
	}
	return n, err
}

func stageValues(r report.Row) []driver.Value {
	v := make([]driver.Value, 0, 22)
	v = append(v, int32(r.Line), r.Term, r.Rank, nullString(r.Department))
	for _, p := range r.Products {
		v = append(v, nullString(p.ASIN), nullString(p.Title), basisPoints(p.ClickShare), basisPoints(p.ConversionShare))
	}
	for _, b := range r.Brands {
		v = append(v, nullString(b))
	}
	for _, c := range r.Categories {
		v = append(v, nullString(c))
	}
	return v
}

func nullString(s string) driver.Value {
	if s == "" {
		return nil
	}
	return s
}

// basisPoints stores a share fraction as 0..10000 in a SMALLINT; blank stays NULL.
func basisPoints(f float32) driver.Value {
	if f < 0 {
		return nil
	}
	return int16(f*10000 + 0.5)
}

// checkDuplicates finds terms listed twice. Strict: the import fails naming both lines;
// lenient: later copies are dropped and reported.
func (w *Warehouse) checkDuplicates(ctx context.Context, stage string, lenient bool) ([]string, error) {
	rows, err := w.db.QueryContext(ctx, `select term, min(line), max(line), count(*) from `+stage+` group by term having count(*) > 1 order by min(line) limit 20`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var dups []string
	var firstLine, lastLine int
	var firstTerm string
	for rows.Next() {
		var term string
		var lo, hi, n int
		if err := rows.Scan(&term, &lo, &hi, &n); err != nil {
			return nil, err
		}
		if dups == nil {
			firstTerm, firstLine, lastLine = term, lo, hi
		}
		dups = append(dups, fmt.Sprintf("line %d: duplicate term %q (first on line %d)", hi, term, lo))
	}
	if err := rows.Err(); err != nil || dups == nil {
		return nil, err
	}
	if !lenient {
		return nil, &report.ParseError{Line: lastLine, ColumnName: "Search Term", Value: firstTerm,
			Expected: fmt.Sprintf("each term once per report, but it is already on line %d", firstLine)}
	}
	if _, err := w.db.ExecContext(ctx, `delete from `+stage+` s where line > (select min(line) from `+stage+` t where t.term = s.term)`); err != nil {
		return nil, err
	}
	return dups, nil
}

// load moves the staged rows into the dictionaries and the fact table, replacing the period.
func (w *Warehouse) load(ctx context.Context, tx *sql.Tx, stage string, rec *PeriodRecord) error {
	ds, idx := rec.DatasetID, periodIndex(rec.Period)
	steps := []struct {
		what string
		q    string
		args []any
	}{
		{"terms", `insert into term select ?, coalesce((select max(id) from term where dataset_id = ?), 0) + row_number() over (), s.term
			from (select distinct term from ` + stage + ` order by term) s
			where not exists (select 1 from term t where t.dataset_id = ? and t.term = s.term)`, []any{ds, ds, ds}},
		{"asins", `insert into asin select coalesce((select max(id) from asin), 0) + row_number() over (), a, t from (
			select a, any_value(t) t from (select asin1 a, title1 t from ` + stage + ` union all select asin2, title2 from ` + stage + ` union all select asin3, title3 from ` + stage + `)
			where a is not null group by a) s where not exists (select 1 from asin x where x.asin = s.a)`, nil},
		{"brands", `insert into brand select coalesce((select max(id) from brand), 0) + row_number() over (), b from (
			select distinct b from (select brand1 b from ` + stage + ` union all select brand2 from ` + stage + ` union all select brand3 from ` + stage + `) where b is not null) s
			where not exists (select 1 from brand x where x.name = s.b)`, nil},
		{"categories", `insert into category select coalesce((select max(id) from category), 0) + row_number() over (), c from (
			select distinct c from (select cat1 c from ` + stage + ` union all select cat2 from ` + stage + ` union all select cat3 from ` + stage + `) where c is not null) s
			where not exists (select 1 from category x where x.name = s.c)`, nil},
		{"old period", `delete from fact where dataset_id = ? and period_idx = ?`, []any{ds, idx}},
		{"facts", `insert into fact select ?, ?, t.id, s.rank, s.department,
			a1.id, a2.id, a3.id, s.click1, s.click2, s.click3, s.conv1, s.conv2, s.conv3,
			b1.id, b2.id, b3.id, c1.id, c2.id, c3.id
			from ` + stage + ` s join term t on t.dataset_id = ? and t.term = s.term
			left join asin a1 on a1.asin = s.asin1 left join asin a2 on a2.asin = s.asin2 left join asin a3 on a3.asin = s.asin3
			left join brand b1 on b1.name = s.brand1 left join brand b2 on b2.name = s.brand2 left join brand b3 on b3.name = s.brand3
			left join category c1 on c1.name = s.cat1 left join category c2 on c2.name = s.cat2 left join category c3 on c3.name = s.cat3
			order by t.id`, []any{ds, idx, ds}},
	}
	for _, s := range steps {
		start := time.Now()
		if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
			return fmt.Errorf("import: %s: %w", s.what, err)
		}
		slog.Debug("import step", "step", s.what, "took", time.Since(start))
	}
	return w.recordPeriod(ctx, tx, stage, rec, idx)
}

func (w *Warehouse) recordPeriod(ctx context.Context, tx *sql.Tx, stage string, rec *PeriodRecord, idx int) error {
	err := tx.QueryRowContext(ctx, `select count(*), max(rank),
		count(*) filter (where asin1 is null and asin2 is null and asin3 is null),
		count(*) filter (where (asin1 is not null)::int + (asin2 is not null)::int + (asin3 is not null)::int = 1),
		count(*) filter (where (asin1 is not null)::int + (asin2 is not null)::int + (asin3 is not null)::int = 2),
		count(*) filter (where asin1 is not null and asin2 is not null and asin3 is not null) from `+stage).
		Scan(&rec.Rows, &rec.DeepestRank, &rec.TermsWith[0], &rec.TermsWith[1], &rec.TermsWith[2], &rec.TermsWith[3])
	if err != nil {
		return fmt.Errorf("import: period record: %w", err)
	}
	res, err := tx.ExecContext(ctx, `delete from period where dataset_id = ? and period_idx = ?`, rec.DatasetID, idx)
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	rec.Replaced = n > 0
	_, err = tx.ExecContext(ctx, `insert into period values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rec.DatasetID, idx, rec.Period.Start, rec.Period.End, rec.Layout, rec.SourceName, rec.SHA256, rec.Rows, rec.DeepestRank,
		rec.TermsWith[0], rec.TermsWith[1], rec.TermsWith[2], rec.TermsWith[3], rec.Rolling, rec.ImportedAt, rec.ImportedBy)
	if err != nil {
		return fmt.Errorf("import: period record: %w", err)
	}
	return nil
}

// DeletePeriod removes one period of a dataset and refreshes the measures.
func (w *Warehouse) DeletePeriod(ctx context.Context, datasetID int, kind report.PeriodKind, start time.Time) error {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	idx := periodIndex(report.Period{Kind: kind, Start: start})
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `delete from period where dataset_id = ? and period_idx = ?`, datasetID, idx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	if _, err := tx.ExecContext(ctx, `delete from fact where dataset_id = ? and period_idx = ?`, datasetID, idx); err != nil {
		return err
	}
	if err := rebuildStats(ctx, tx, datasetID); err != nil {
		return err
	}
	return tx.Commit()
}

// RebuildStats recomputes a dataset's measures (after a bulk load with SkipStats).
func (w *Warehouse) RebuildStats(ctx context.Context, datasetID int) error {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := rebuildStats(ctx, tx, datasetID); err != nil {
		return err
	}
	return tx.Commit()
}
