package warehouse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// randomWeek is week n of a report over terms t0..t(terms-1), each present with probability
// 0.7, with products, titles, brands and categories drawn from small pools and blank cells.
func randomWeek(n, terms int, rng *rand.Rand) *memSource {
	src := week(n, nil)
	var ranked []string
	for i := range terms {
		if rng.Float64() < 0.7 {
			ranked = append(ranked, fmt.Sprintf("t%d", i))
		}
	}
	rng.Shuffle(len(ranked), func(i, j int) { ranked[i], ranked[j] = ranked[j], ranked[i] })
	share := func() float32 {
		if rng.IntN(8) == 0 {
			return report.NoShare
		}
		return float32(rng.IntN(3000)) / 10000
	}
	for i, term := range ranked {
		r := report.Row{Line: 3 + i, Term: term, Rank: int32(i + 1)}
		for k := range rng.IntN(4) {
			code := fmt.Sprintf("B0%08d", rng.IntN(40))
			r.Products[k] = report.Product{ASIN: code, Title: "title of " + code, ClickShare: share(), ConversionShare: share()}
			if rng.IntN(3) > 0 {
				r.Brands[k] = fmt.Sprintf("brand%d", rng.IntN(6))
			}
			if rng.IntN(3) > 0 {
				r.Categories[k] = fmt.Sprintf("category%d", rng.IntN(4))
			}
		}
		for k := len(r.Products) - 1; k >= 0 && r.Products[k].ASIN == ""; k-- {
			r.Products[k] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
		}
		src.rows = append(src.rows, r)
	}
	return src
}

// compareHistories checks that every term (and a missing one), alone and ten at a time, at
// the latest period and at every past one (and a missing one), reads the same through
// TermHistoriesAt as from DuckDB, and whether the history file answered (fromFile; either:
// any). It returns how many answers came from the file.
func compareHistories(t *testing.T, w *Warehouse, d *Dataset, terms int, fromFile answerFrom) int {
	t.Helper()
	ctx := context.Background()
	recs, err := w.periodRecords(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	ats := []time.Time{{}, week0.AddDate(0, 0, 7*40)}
	for idx := range recs.imported {
		ats = append(ats, periodFromIndex(d.Kind, idx).Start.AddDate(0, 0, 2))
	}
	var asks [][]string
	for i := range terms + 1 {
		asks = append(asks, []string{fmt.Sprintf("t%d", i)})
	}
	asks = append(asks, []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "nope", "t9"}, []string{"t3", "t3"})
	answered := 0
	for _, at := range ats {
		for _, ask := range asks {
			want, wantErr := w.termHistoriesDB(ctx, d, ask, at)
			got, ok, err := w.historiesFromFile(ctx, d, ask, at)
			if fromFile != either && ok != (fromFile == file) {
				t.Fatalf("%v at %v: answered from the file %v, want %v", ask, at, ok, fromFile == file)
			}
			if ok {
				answered++
			} else {
				got, err = w.TermHistoriesAt(ctx, d, ask, at)
			}
			if !errors.Is(err, wantErr) && (err == nil || wantErr == nil || err.Error() != wantErr.Error()) {
				t.Fatalf("%v at %v: error %v, want %v", ask, at, err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				x, _ := json.Marshal(want)
				t.Fatalf("%v at %v:\n got %s\nwant %s", ask, at, g, x)
			}
		}
	}
	return answered
}

// answerFrom says where compareHistories expects answers from.
type answerFrom int

const (
	duck answerFrom = iota
	file
	either
)

// replaceFile puts data in place of the dataset's history file, as if left by an older run.
func replaceFile(t *testing.T, w *Warehouse, ds int, data []byte) {
	t.Helper()
	path := historyFilePath(w.asinIndex, ds)
	w.hist.drop(path, ds, true)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestHistoryFileAnswersAsDuckDB(t *testing.T) {
	ctx := context.Background()
	defer func(n, m int) { historySlice, maxPending = n, m }(historySlice, maxPending)
	historySlice, maxPending = 7, 2
	const terms = 40
	rng := rand.New(rand.NewPCG(1, 2))
	w := openTemp(t)
	for _, n := range []int{0, 1, 2, 4, 5} { // week 3 missing
		load(t, w, "ws", randomWeek(n, terms, rng))
	}
	d := dataset(t, w, "ws")
	compareHistories(t, w, d, terms, duck) // the copy does not hold every period yet
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.RefreshHistoryFiles(ctx); err != nil {
		t.Fatal(err)
	}
	compareHistories(t, w, d, terms, file)
	path := historyFilePath(w.asinIndex, d.ID)
	built, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a period imported after the file", func(t *testing.T) {
		// Lookups go on while the period is imported and the file rewritten and swapped (run
		// with -race); each answer holds every period of one moment, 6 or 7 of them.
		done, failed := make(chan struct{}), make(chan error, 1)
		go func() {
			defer close(failed)
			for {
				select {
				case <-done:
					return
				default:
				}
				h, err := w.TermHistoriesAt(ctx, d, []string{"t1"}, time.Time{})
				if err == nil && len(h[0].Points) != 6 && len(h[0].Points) != 7 {
					err = fmt.Errorf("%d points", len(h[0].Points))
				}
				if err != nil {
					failed <- err
					return
				}
			}
		}()
		load(t, w, "ws", randomWeek(6, terms, rng))
		w.WaitBackground() // appends it to the copy and rewrites the file
		close(done)
		if err := <-failed; err != nil {
			t.Fatal(err)
		}
		compareHistories(t, w, d, terms, file)
		replaceFile(t, w, d.ID, built) // the file as it was before the import
		compareHistories(t, w, d, terms, duck)
		if err := w.RefreshHistoryFiles(ctx); err != nil {
			t.Fatal(err)
		}
		compareHistories(t, w, d, terms, file)
	})
	t.Run("a replaced period", func(t *testing.T) {
		stale, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		load(t, w, "ws", randomWeek(2, terms, rng))
		w.WaitBackground() // the file is rewritten with the period read from fact
		compareHistories(t, w, d, terms, file)
		replaceFile(t, w, d.ID, stale) // the file as it was before the import
		compareHistories(t, w, d, terms, duck)
		if err := w.Compact(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		if err := w.RefreshHistoryFiles(ctx); err != nil {
			t.Fatal(err)
		}
		compareHistories(t, w, d, terms, file)
	})
	t.Run("a deleted period", func(t *testing.T) {
		if err := w.DeletePeriod(ctx, d.ID, d.Kind, week0.AddDate(0, 0, 7*4)); err != nil {
			t.Fatal(err)
		}
		w.WaitBackground() // the copy's record of the period is never read again: the file is rewritten
		compareHistories(t, w, d, terms, file)
	})
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("damaged files", func(t *testing.T) {
		flipped := append([]byte(nil), good...)
		flipped[100] ^= 0x40 // inside the first block
		truncated := good[:len(good)-5]
		header := append([]byte(nil), good...)
		header[20] ^= 1 // the dataset id
		for name, data := range map[string][]byte{"a block": flipped, "truncated": truncated, "header": header, "empty": nil} {
			replaceFile(t, w, d.ID, data)
			compareHistories(t, w, d, terms, either) // found damaged at open or at a block's lookup
			w.WaitBackground()                       // which has the file rewritten
			if n := compareHistories(t, w, d, terms, file); n == 0 {
				t.Fatalf("%s: not rewritten", name)
			}
		}
	})
	t.Run("another dataset's file", func(t *testing.T) {
		load(t, w, "other", randomWeek(0, terms, rng))
		o := dataset(t, w, "other")
		replaceFile(t, w, o.ID, good)
		compareHistories(t, w, o, terms, duck)
	})
	t.Run("a deleted workspace", func(t *testing.T) {
		if err := w.DeleteWorkspace(ctx, "ws"); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the history file is still there: %v", err)
		}
		if _, ok, _ := w.historiesFromFile(ctx, d, []string{"t1"}, time.Time{}); ok {
			t.Fatal("a deleted dataset answered from a history file")
		}
	})
}

// pages reads the product page of every product and the brand page of every brand randomWeek
// draws from, at two limits, as JSON.
func pages(t *testing.T, w *Warehouse, d *Dataset) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, limit := range []int{3, 50} {
		for i := range 40 {
			p, err := w.ProductTerms(ctx, d, fmt.Sprintf("B0%08d", i), limit)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(p)
			out = append(out, string(b))
		}
		for i := range 6 {
			p, err := w.BrandTerms(ctx, d, fmt.Sprintf("brand%d", i), limit)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(p)
			out = append(out, string(b))
		}
	}
	return out
}

func TestProductAndBrandPagesFromTheHistoryFile(t *testing.T) {
	ctx := context.Background()
	defer func(n int) { historySlice = n }(historySlice)
	historySlice = 7
	rng := rand.New(rand.NewPCG(3, 4))
	w := openTemp(t)
	for _, n := range []int{0, 1, 2, 4, 5} {
		load(t, w, "ws", randomWeek(n, 40, rng))
	}
	d := dataset(t, w, "ws")
	before := presenceFromFile.Load()
	want := pages(t, w, d) // from DuckDB: no history file before the copy holds every period
	if presenceFromFile.Load() != before {
		t.Fatal("a page came from a history file before one was written")
	}
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.RefreshHistoryFiles(ctx); err != nil {
		t.Fatal(err)
	}
	got := pages(t, w, d)
	if n := presenceFromFile.Load() - before; n != int64(len(got)) {
		t.Fatalf("%d of %d pages came from the history file", n, len(got))
	}
	if !reflect.DeepEqual(got, want) {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("page %d:\n got %s\nwant %s", i, got[i], want[i])
			}
		}
	}
	// A period imported after the file: the background job rewrites it; the file as it was
	// before sends the pages to DuckDB again, which answers the same.
	built, err := os.ReadFile(historyFilePath(w.asinIndex, d.ID))
	if err != nil {
		t.Fatal(err)
	}
	load(t, w, "ws", randomWeek(6, 40, rng))
	w.WaitBackground()
	before = presenceFromFile.Load()
	fresh := pages(t, w, d)
	if n := presenceFromFile.Load() - before; n != int64(len(fresh)) {
		t.Fatalf("%d of %d pages came from the rewritten history file", n, len(fresh))
	}
	if reflect.DeepEqual(fresh, want) {
		t.Fatal("the new period changed no page")
	}
	replaceFile(t, w, d.ID, built)
	before = presenceFromFile.Load()
	if stale := pages(t, w, d); !reflect.DeepEqual(stale, fresh) {
		t.Fatal("pages from DuckDB differ from the rewritten file's")
	}
	if presenceFromFile.Load() != before {
		t.Fatal("a page came from a history file that lacks the latest period")
	}
}
