package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/asinindex"
	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// A staged row reads back through the staging view as it was parsed: quotes, commas and line
// breaks in a term survive, blank shares, missing products and absent names are NULL, shares
// become basis points and names their dictionary ids. Products the ASIN index knows get its
// ids, and only the top one keeps its code.
func TestStagedRowsReadBack(t *testing.T) {
	t.Run("without an ASIN index", func(t *testing.T) {
		stagedRowsReadBack(t, nil, "B0AAAAAAAA|3862|-|B0BBBBBBBB|0|10000|-|-|-|7|-|-|3|3|-|-|-|-", "not staged")
	})
	t.Run("with an ASIN index", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "asins.idx")
		var pairs []asinindex.Pair
		for i, code := range []string{"B0AAAAAAAA", "B0BBBBBBBB"} {
			p, _ := asinindex.PairOf(code, int32(41+i))
			pairs = append(pairs, p)
		}
		if err := asinindex.Write(path, nil, pairs, asinindex.Coverage{MaxID: 42, Rows: 2}); err != nil {
			t.Fatal(err)
		}
		x, err := asinindex.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		// A known product's title is never read back, so it is not spilled either.
		stagedRowsReadBack(t, &asinIndexFor{x, 42}, "B0AAAAAAAA|3862|-|-|0|10000|-|-|-|7|-|-|3|3|-|41|42|-", "")
	})
}

func stagedRowsReadBack(t *testing.T, asins *asinIndexFor, wantProducts, wantTitle string) {
	brands := &nameIDs{table: "brand", ids: map[string]int32{"Acme": 7}}
	categories := &nameIDs{table: "category", ids: map[string]int32{"Toys": 3}}
	row := report.Row{Line: 12, Rank: 345, Term: "14\" \"pro\", max\nsize", Department: "amazon.com",
		Products: [3]report.Product{
			{ASIN: "B0AAAAAAAA", Title: "not staged", ClickShare: 0.3862, ConversionShare: report.NoShare},
			{ASIN: "B0BBBBBBBB", ClickShare: 0, ConversionShare: 1},
			{ClickShare: report.NoShare, ConversionShare: report.NoShare}},
		Brands: [3]string{"Acme", "", ""}, Categories: [3]string{"Toys", "Toys", ""}}
	plain := report.Row{Line: 13, Rank: 346, Term: "plain", Products: [3]report.Product{
		{ClickShare: report.NoShare, ConversionShare: report.NoShare}, {ClickShare: report.NoShare, ConversionShare: report.NoShare},
		{ClickShare: report.NoShare, ConversionShare: report.NoShare}}}
	w := openTemp(t)
	spill, err := newTitleSpill(t.TempDir(), "st")
	if err != nil {
		t.Fatal(err)
	}
	defer spill.close()
	batches := make(chan rowBatch, 1)
	batches <- rowBatch{first: stageBatch, rows: []report.Row{row, plain}}
	close(batches)
	path := filepath.Join(t.TempDir(), "stage.parquet")
	count := newRowCounter(nil)
	if err := writeStaged(path, batches, spill, stageNames{brands, categories, asins}, count); err != nil {
		t.Fatal(err)
	}
	if count.rows != 2 || count.deepest != 346 || count.with != [4]int{1, 0, 1, 0} {
		t.Errorf("counted %+v", count.stagedCounts)
	}
	ctx := context.Background()
	conn, err := w.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := readStage(ctx, conn, "st", []string{path}); err != nil {
		t.Fatal(err)
	}
	var got string
	err = conn.QueryRowContext(ctx, `select string_agg(concat_ws('|', ord, line, term, rank, coalesce(department, '-'),
		coalesce(asin1, '-'), coalesce(click1::varchar, '-'), coalesce(conv1::varchar, '-'),
		coalesce(asin2, '-'), coalesce(click2::varchar, '-'), coalesce(conv2::varchar, '-'),
		coalesce(asin3, '-'), coalesce(click3::varchar, '-'), coalesce(conv3::varchar, '-'),
		coalesce(brand1::varchar, '-'), coalesce(brand2::varchar, '-'), coalesce(brand3::varchar, '-'),
		coalesce(cat1::varchar, '-'), coalesce(cat2::varchar, '-'), coalesce(cat3::varchar, '-'),
		coalesce(asin_id1::varchar, '-'), coalesce(asin_id2::varchar, '-'), coalesce(asin_id3::varchar, '-')), ';' order by ord) from st`).Scan(&got)
	if err != nil {
		t.Fatal(err)
	}
	want := "2048|12|" + row.Term + "|345|amazon.com|" + wantProducts + ";" +
		"2049|13|plain|346|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-"
	if got != want {
		t.Errorf("read back\n got %q\nwant %q", got, want)
	}
	if title, err := spill.reader().title(stageBatch, 1); err != nil || title != wantTitle {
		t.Errorf("title spilled %q, %v; want %q", title, err, wantTitle)
	}
}

// The staging files are named in SQL as literals (the view readStage makes cannot take
// parameters): a data directory whose name holds a quote imports as any other, and leaves no
// staging file behind.
func TestStagingInQuotedDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "seller's data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	w := openAt(t, filepath.Join(dir, "t.duckdb"))
	defer closeChecked(t, w)
	src := &bigWeek{n: 3000, meta: report.Meta{Layout: report.LayoutAmazonTST, Marketplace: "amazon.com", Name: "quoted dir",
		Period: report.Period{Kind: report.Week, Start: week0, End: week0.AddDate(0, 0, 6)}}}
	rec, err := w.Import(context.Background(), src, ImportOptions{Workspace: "ws", ImportedBy: "t"})
	if err != nil {
		t.Fatal(err)
	}
	var facts int
	if err := w.db.QueryRow(`select count(*) from fact where dataset_id = ?`, rec.DatasetID).Scan(&facts); err != nil {
		t.Fatal(err)
	}
	if rec.Rows != 3000 || facts != 3000 {
		t.Errorf("period record %d rows, fact %d rows; want 3000", rec.Rows, facts)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "stage_*")); len(left) != 0 {
		t.Errorf("staging files left: %v", left)
	}
}
