package alerts_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// The fixture: six weekly reports written here, so every expected move below is known by
// construction. Weeks start on Sundays; week 6 (Apr 5 – 11, 2026) is the latest.
var firstWeek = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

func weekStart(w int) time.Time { return firstWeek.AddDate(0, 0, 7*(w-1)) }

type fixtureRow struct {
	rank   int
	term   string
	brands [3]string
	asins  [3]string
}

// fixtureWeek lists the rows of week w (1..6).
func fixtureWeek(w int) []fixtureRow {
	yogaTop := [3]string{"B0AAAAAAA1", "B0AAAAAAA2", "B0AAAAAAA3"}
	yogaRank := 1000
	shovel := 2000
	hose := [3]string{"B0HOSE0001", "B0WATCHED1", "B0HOSE0003"}
	hoseBrands := [3]string{"Hoseco", "Flowrite", "Gardena"}
	reel := [3]string{"B0REEL0001", "B0REEL0002", "B0REEL0003"}
	if w == 6 {
		yogaTop = [3]string{"B0AAAAAAA1", "B0AAAAAAA2", "B0NEWPROD1"} // B0NEWPROD1 enters, B0AAAAAAA3 leaves
		yogaRank = 300                                                // 1,000 → 300: a 70% move
		shovel = 2100                                                 // 2,000 → 2,100: a 5% move
		hose = [3]string{"B0HOSE0001", "B0HOSE0002", "B0HOSE0003"}    // the watched product leaves "garden hose"
		hoseBrands = [3]string{"Hoseco", "Brandy", "Gardena"}         // the watched brand enters it
		reel = [3]string{"B0REEL0001", "B0WATCHED1", "B0REEL0003"}    // and the watched product enters "hose reel"
	}
	rows := []fixtureRow{
		{rank: yogaRank, term: "yoga mat", asins: yogaTop},
		{rank: shovel, term: "snow shovel", asins: [3]string{"B0SHOVEL01", "B0SHOVEL02", "B0SHOVEL03"}},
		{rank: 3000, term: "garden hose", brands: hoseBrands, asins: hose},
		{rank: 3500, term: "hose reel", asins: reel},
		{rank: 9000, term: "filler term", asins: [3]string{"B0FILLER01", "B0FILLER02", "B0FILLER03"}},
	}
	// "yoga mat bag" rises every week: a breakout in weeks 5 and 6, so not a new one in week 6.
	bag := map[int]int{1: 8000, 2: 6000, 3: 4000, 4: 3000, 5: 1500, 6: 700}
	rows = append(rows, fixtureRow{rank: bag[w], term: "yoga mat bag", asins: [3]string{"B0BAG00001", "B0BAG00002", "B0BAG00003"}})
	if w == 6 { // new in week 6: a new breakout among the terms containing "yoga mat"
		rows = append(rows, fixtureRow{rank: 400, term: "yoga mat xl", asins: [3]string{"B0XL000001", "B0XL000002", "B0XL000003"}})
	}
	if w <= 5 { // "ice scraper" drops out of the report in week 6
		rows = append(rows, fixtureRow{rank: 5000, term: "ice scraper", asins: [3]string{"B0ICE00001", "B0ICE00002", "B0ICE00003"}})
	}
	return rows
}

var tstHeader = []string{"Search Frequency Rank", "Search Term", "Top Clicked Brand #1", "Top Clicked Brands #2", "Top Clicked Brands #3",
	"Top Clicked Category #1", "Top Clicked Category #2", "Top Clicked Category #3",
	"Top Clicked Product #1: ASIN", "Top Clicked Product #1: Product Title", "Top Clicked Product #1: Click Share", "Top Clicked Product #1: Conversion Share",
	"Top Clicked Product #2: ASIN", "Top Clicked Product #2: Product Title", "Top Clicked Product #2: Click Share", "Top Clicked Product #2: Conversion Share",
	"Top Clicked Product #3: ASIN", "Top Clicked Product #3: Product Title", "Top Clicked Product #3: Click Share", "Top Clicked Product #3: Conversion Share",
	"Reporting Date"}

// writeWeek writes week w as an Amazon Top Search Terms CSV and returns its path.
func writeWeek(t *testing.T, dir string, w int) string {
	t.Helper()
	start := weekStart(w)
	end := start.AddDate(0, 0, 6)
	path := filepath.Join(dir, fmt.Sprintf("US_Top_Search_Terms_Simple_Week_%s.csv", end.Format("2006_01_02")))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cw := csv.NewWriter(f)
	meta := make([]string, len(tstHeader))
	meta[0] = `Reporting Range=["Weekly"]`
	meta[1] = fmt.Sprintf(`Select week=["Week %d | %s - %s %d"]`, 9+w, start.Format(time.DateOnly), end.Format(time.DateOnly), end.Year())
	cw.Write(meta)
	cw.Write(tstHeader)
	for _, r := range fixtureWeek(w) {
		brand := func(i int) string {
			if r.brands[i] != "" {
				return r.brands[i]
			}
			return fmt.Sprintf("Brand %s", r.asins[i])
		}
		rec := []string{fmt.Sprint(r.rank), r.term, brand(0), brand(1), brand(2), "Home", "Sports", "Garden"}
		for i, a := range r.asins {
			rec = append(rec, a, "Title of "+a, fmt.Sprint(30-5*i), fmt.Sprint(20-5*i))
		}
		rec = append(rec, end.Format("1/2/2006"))
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		t.Fatal(err)
	}
	return path
}

// importWeeks imports weeks 1..n into workspace ws and returns the dataset id.
func importWeeks(t *testing.T, wh *warehouse.Warehouse, ws string, weeks ...int) int {
	t.Helper()
	dir := t.TempDir()
	var rec *warehouse.PeriodRecord
	for _, w := range weeks {
		srcs, err := report.Open(writeWeek(t, dir, w), report.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err = wh.Import(context.Background(), srcs[0], warehouse.ImportOptions{Workspace: ws, ImportedBy: "test"})
		srcs[0].Close()
		if err != nil {
			t.Fatalf("import week %d: %v", w, err)
		}
	}
	return rec.DatasetID
}

func week(w int) report.Period {
	s := weekStart(w)
	return report.Period{Kind: report.Week, Start: s, End: s.AddDate(0, 0, 6)}
}

// The six weeks are imported once per test binary into fixtureDir; each test opens a copy, so
// tests stay independent without importing them again (about a second per week).
var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixtureDS   int
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	os.Exit(code)
}

// fixtureWarehouse opens a private copy of the fixture warehouse (the six weeks in workspace
// ws) and returns it with the dataset id.
func fixtureWarehouse(t *testing.T, ws string) (*warehouse.Warehouse, int) {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "alerts-fixture-")
		if err != nil {
			t.Fatal(err)
		}
		wh, err := warehouse.Open(context.Background(), dir, "512MB")
		if err != nil {
			t.Fatal(err)
		}
		fixtureDS = importWeeks(t, wh, ws, 1, 2, 3, 4, 5, 6)
		if err := wh.Close(); err != nil {
			t.Fatal(err)
		}
		fixtureDir = dir
	})
	if fixtureDir == "" {
		t.Fatal("the fixture warehouse could not be built (see the first test)")
	}
	dir := t.TempDir()
	err := filepath.WalkDir(fixtureDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == fixtureDir {
			return err
		}
		rel, _ := filepath.Rel(fixtureDir, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.Open(context.Background(), dir, "512MB")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wh.Close() })
	return wh, fixtureDS
}
