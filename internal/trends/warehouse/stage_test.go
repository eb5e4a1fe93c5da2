package warehouse

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// TestAppendStaged checks the staging line against an RFC 4180 reader: quotes, commas and line
// breaks in a term survive, blank shares and missing products stay empty (NULL), shares become
// basis points and names their dictionary ids.
func TestAppendStaged(t *testing.T) {
	brands := &nameIDs{table: "brand", ids: map[string]int32{"Acme": 7}}
	categories := &nameIDs{table: "category", ids: map[string]int32{"Toys": 3}}
	row := report.Row{Line: 12, Rank: 345, Term: "14\" \"pro\", max\nsize", Department: "amazon.com",
		Products: [3]report.Product{
			{ASIN: "B0AAAAAAAA", ClickShare: 0.3862, ConversionShare: report.NoShare},
			{ASIN: "B0BBBBBBBB", ClickShare: 0, ConversionShare: 1},
			{ClickShare: report.NoShare, ConversionShare: report.NoShare}},
		Brands: [3]string{"Acme", "", ""}, Categories: [3]string{"Toys", "Toys", ""}}
	line := appendStaged(nil, 41, &row, brands.cache(), categories.cache())
	got, err := csv.NewReader(strings.NewReader(string(line))).Read()
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	want := []string{"41", "12", row.Term, "345", "amazon.com",
		"B0AAAAAAAA", "3862", "", "B0BBBBBBBB", "0", "10000", "", "", "",
		"7", "", "", "3", "3", ""}
	if !slices.Equal(got, want) {
		t.Errorf("staged %q\n got %q\nwant %q", line, got, want)
	}
	// DuckDB reads the line back into the staging table as written.
	w := openTemp(t)
	ctx := context.Background()
	conn, err := w.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	path := filepath.Join(t.TempDir(), "stage.csv")
	if err := os.WriteFile(path, line, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `create temp table st (`+stageDDL()+`)`); err != nil {
		t.Fatal(err)
	}
	if err := readStage(ctx, conn, "st", []string{path}); err != nil {
		t.Fatal(err)
	}
	var term string
	var click1, conv1 *int
	var brand2 *int
	if err := conn.QueryRowContext(ctx, `select term, click1, conv1, brand2 from st`).Scan(&term, &click1, &conv1, &brand2); err != nil {
		t.Fatal(err)
	}
	if term != row.Term || click1 == nil || *click1 != 3862 || conv1 != nil || brand2 != nil {
		t.Errorf("read back term %q click1 %v conv1 %v brand2 %v", term, click1, conv1, brand2)
	}
}
