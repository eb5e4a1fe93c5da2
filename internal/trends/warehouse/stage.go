package warehouse

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// parquetRow is one staged row as a staging file holds it, in stageColumns' order; nil is NULL
// (a blank share, a missing product, no brand). Shares are basis points (0..10000), brands
// and categories their dictionary ids.
type parquetRow struct {
	Ord        int32   `parquet:"ord"`
	Line       int32   `parquet:"line"`
	Term       string  `parquet:"term"`
	Rank       int32   `parquet:"rank"`
	Department *string `parquet:"department,optional"`
	ASIN1      *string `parquet:"asin1,optional"`
	Click1     *int32  `parquet:"click1,optional"`
	Conv1      *int32  `parquet:"conv1,optional"`
	ASIN2      *string `parquet:"asin2,optional"`
	Click2     *int32  `parquet:"click2,optional"`
	Conv2      *int32  `parquet:"conv2,optional"`
	ASIN3      *string `parquet:"asin3,optional"`
	Click3     *int32  `parquet:"click3,optional"`
	Conv3      *int32  `parquet:"conv3,optional"`
	Brand1     *int32  `parquet:"brand1,optional"`
	Brand2     *int32  `parquet:"brand2,optional"`
	Brand3     *int32  `parquet:"brand3,optional"`
	Cat1       *int32  `parquet:"cat1,optional"`
	Cat2       *int32  `parquet:"cat2,optional"`
	Cat3       *int32  `parquet:"cat3,optional"`

	values [12]int32 // what the integer pointers point at
}

// writeStaged writes rows to a Parquet file at path, and their titles to the spill, until
// batches closes. Row groups are DuckDB's size, so the writer holds one at a time; the file
// is uncompressed, which DuckDB reads fastest.
func writeStaged(path string, batches <-chan rowBatch, spill *titleSpill, names stageNames, count *rowCounter) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("import: stage: %w", err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	pw := parquet.NewGenericWriter[parquetRow](bw, parquet.Compression(&parquet.Uncompressed), parquet.MaxRowsPerRowGroup(122880))
	brands, categories := map[string]int32{}, map[string]int32{}
	buf := make([]parquetRow, stageBatch)
	for batch := range batches {
		if err := spill.add(batch.first, batch.rows); err != nil {
			return err
		}
		out := buf[:len(batch.rows)]
		for i := range batch.rows {
			fillStaged(&out[i], batch.first+i, &batch.rows[i], names, brands, categories)
		}
		if _, err := pw.Write(out); err != nil {
			return fmt.Errorf("import: stage: %w", err)
		}
		count.add(batch.rows)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("import: stage: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("import: stage: %w", err)
	}
	return f.Close()
}

// fillStaged makes p row ord of the report. Its pointers point into r and into p itself, so
// nothing is allocated per row; the writer copies the values before the batch is reused.
func fillStaged(p *parquetRow, ord int, r *report.Row, names stageNames, brands, categories map[string]int32) {
	*p = parquetRow{Ord: int32(ord), Line: int32(r.Line), Term: r.Term, Rank: r.Rank}
	if r.Department != "" {
		p.Department = &r.Department
	}
	asins := [3]**string{&p.ASIN1, &p.ASIN2, &p.ASIN3}
	shares := [6]**int32{&p.Click1, &p.Conv1, &p.Click2, &p.Conv2, &p.Click3, &p.Conv3}
	for k := range r.Products {
		prod := &r.Products[k]
		if prod.ASIN != "" {
			*asins[k] = &prod.ASIN
		}
		for j, share := range []float32{prod.ClickShare, prod.ConversionShare} {
			if share >= 0 {
				p.values[2*k+j] = int32(share*10000 + 0.5)
				*shares[2*k+j] = &p.values[2*k+j]
			}
		}
	}
	ids := [6]**int32{&p.Brand1, &p.Brand2, &p.Brand3, &p.Cat1, &p.Cat2, &p.Cat3}
	for k := range 3 {
		if id, ok := nameID(names.brands, brands, r.Brands[k]); ok {
			p.values[6+k] = id
			*ids[k] = &p.values[6+k]
		}
		if id, ok := nameID(names.categories, categories, r.Categories[k]); ok {
			p.values[9+k] = id
			*ids[3+k] = &p.values[9+k]
		}
	}
}

// nameID is name's id in d, remembered in the writer's own cache so the shared dictionary is
// locked only for names the writer meets first; false for no name.
func nameID(d *nameIDs, cache map[string]int32, name string) (int32, bool) {
	if name == "" {
		return 0, false
	}
	id, ok := cache[name]
	if !ok {
		id = d.id(name)
		cache[name] = id
	}
	return id, true
}

// loadStage is readStage; tests replace it to fail.
var loadStage = readStage

// readStage loads the staging files at paths into the staging table.
func readStage(ctx context.Context, conn *sql.Conn, stage string, paths []string) error {
	cols := make([]string, len(stageColumns))
	for i, c := range stageColumns {
		cols[i] = c[0]
	}
	args := make([]any, len(paths))
	for i, p := range paths {
		args[i] = p
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(paths)), ", ")
	_, err := conn.ExecContext(ctx, `insert into `+stage+` select `+strings.Join(cols, ", ")+` from read_parquet([`+marks+`])`, args...)
	if err != nil {
		return fmt.Errorf("import: stage: %w", err)
	}
	return nil
}
