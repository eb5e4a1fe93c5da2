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

// parquetRow is one staged row as a staging file holds it, in stageColumns' order. Every
// column is required: an empty string, a share of -1 and an id of 0 stand for NULL (a blank
// share, a missing product, no brand) and readStage turns them back (stagedNull). Optional
// columns cost parquet-go twice the time to write. Shares are basis points (0..10000), brands,
// categories and products found in the ASIN index their dictionary ids (from 1).
type parquetRow struct {
	Ord        int32  `parquet:"ord"`
	Line       int32  `parquet:"line"`
	Term       string `parquet:"term"`
	Rank       int32  `parquet:"rank"`
	Department string `parquet:"department"`
	ASIN1      string `parquet:"asin1"`
	Click1     int16  `parquet:"click1"`
	Conv1      int16  `parquet:"conv1"`
	ASIN2      string `parquet:"asin2"`
	Click2     int16  `parquet:"click2"`
	Conv2      int16  `parquet:"conv2"`
	ASIN3      string `parquet:"asin3"`
	Click3     int16  `parquet:"click3"`
	Conv3      int16  `parquet:"conv3"`
	Brand1     int32  `parquet:"brand1"`
	Brand2     int32  `parquet:"brand2"`
	Brand3     int32  `parquet:"brand3"`
	Cat1       int32  `parquet:"cat1"`
	Cat2       int32  `parquet:"cat2"`
	Cat3       int32  `parquet:"cat3"`
	ASINID1    int32  `parquet:"asin_id1"`
	ASINID2    int32  `parquet:"asin_id2"`
	ASINID3    int32  `parquet:"asin_id3"`
}

// noShare is a blank share in a staging file.
const noShare = -1

// stagedNull is the value that stands for NULL in a staging file's column of a SQL type.
func stagedNull(sqlType string) string {
	switch sqlType {
	case "varchar":
		return "''"
	case "smallint":
		return "-1"
	default: // ids
		return "0"
	}
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
	codes, ids := make([]string, 3*stageBatch), make([]int32, 3*stageBatch)
	for batch := range batches {
		for i := range batch.rows {
			for k := range 3 {
				codes[3*i+k] = batch.rows[i].Products[k].ASIN
			}
		}
		names.asins.lookUpAll(codes[:3*len(batch.rows)], ids)
		if err := spill.add(batch.first, batch.rows, ids); err != nil {
			return err
		}
		out := buf[:len(batch.rows)]
		for i := range batch.rows {
			fillStaged(&out[i], batch.first+i, &batch.rows[i], ids[3*i:3*i+3], names, brands, categories)
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

// fillStaged makes p row ord of the report, whose products have the ids asinIDs in the ASIN
// index (-1: not found there). A product found there is staged with its id and without its
// code, but for the top product, whose code the measures keep.
func fillStaged(p *parquetRow, ord int, r *report.Row, asinIDs []int32, names stageNames, brands, categories map[string]int32) {
	*p = parquetRow{Ord: int32(ord), Line: int32(r.Line), Term: r.Term, Rank: r.Rank, Department: r.Department}
	asins := [3]*string{&p.ASIN1, &p.ASIN2, &p.ASIN3}
	found := [3]*int32{&p.ASINID1, &p.ASINID2, &p.ASINID3}
	shares := [6]*int16{&p.Click1, &p.Conv1, &p.Click2, &p.Conv2, &p.Click3, &p.Conv3}
	for k := range r.Products {
		prod := &r.Products[k]
		if asinIDs[k] < 0 || k == 0 {
			*asins[k] = prod.ASIN
		}
		*found[k] = max(asinIDs[k], 0)
		for j, share := range []float32{prod.ClickShare, prod.ConversionShare} {
			*shares[2*k+j] = noShare
			if share >= 0 {
				*shares[2*k+j] = int16(share*10000 + 0.5)
			}
		}
	}
	ids := [6]*int32{&p.Brand1, &p.Brand2, &p.Brand3, &p.Cat1, &p.Cat2, &p.Cat3}
	for k := range 3 {
		*ids[k] = nameID(names.brands, brands, r.Brands[k])
		*ids[3+k] = nameID(names.categories, categories, r.Categories[k])
	}
}

// nameID is name's id in d, remembered in the writer's own cache so the shared dictionary is
// locked only for names the writer meets first; 0 for no name.
func nameID(d *nameIDs, cache map[string]int32, name string) int32 {
	if name == "" {
		return 0
	}
	id, ok := cache[name]
	if !ok {
		id = d.id(name)
		cache[name] = id
	}
	return id
}

// loadStage is readStage; tests replace it to fail.
var loadStage = readStage

// readStage makes stage a temporary view of the staging files at paths, with NULLs where
// they hold stagedNull, each column of its stageColumns type. A view, not a table: the steps
// after it read the files themselves (each only the columns it needs), which on the 3M x 156
// set cost 0.4-0.8 s less per 2.67M-row week than copying every row into a temporary table
// first. The rows' own key is ord (their place in the report), not a rowid. The checks that
// drop or merge rows first copy them into a table (materializeStage).
func readStage(ctx context.Context, conn *sql.Conn, stage string, paths []string) error {
	cols := make([]string, len(stageColumns))
	for i, c := range stageColumns {
		v := c[0]
		if c[0] != "ord" && c[0] != "line" && c[0] != "term" && c[0] != "rank" {
			v = "nullif(" + c[0] + ", " + stagedNull(c[1]) + ")"
		}
		cols[i] = "cast(" + v + " as " + c[1] + ") as " + c[0]
	}
	files := make([]string, len(paths))
	for i, p := range paths {
		files[i] = sqlString(p)
	}
	_, err := conn.ExecContext(ctx, `create temp view `+stage+` as select `+strings.Join(cols, ", ")+
		` from read_parquet([`+strings.Join(files, ", ")+`])`)
	if err != nil {
		return fmt.Errorf("import: stage: %w", err)
	}
	return nil
}

// sqlString quotes s as an SQL string literal (a view cannot take parameters).
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// stagedTable names the table materializeStage copies the staged rows into.
func stagedTable(stage string) string { return stage + "_copy" }

// materializeStage copies the staged rows into stagedTable(stage) and points the view stage
// at it, so the checks can drop and merge rows; it returns the table's name.
func materializeStage(ctx context.Context, conn *sql.Conn, stage string) (string, error) {
	table := stagedTable(stage)
	err := execAll(ctx, conn, `create temp table `+table+` as select * from `+stage,
		`create or replace temp view `+stage+` as select * from `+table)
	if err != nil {
		return "", fmt.Errorf("import: stage: %w", err)
	}
	return table, nil
}

// dropStage drops the view stage and the table materializeStage may have made.
func dropStage(ctx context.Context, conn execer, stage string) error {
	_, err := conn.ExecContext(ctx, `drop view if exists `+stage+`; drop table if exists `+stagedTable(stage))
	return err
}
