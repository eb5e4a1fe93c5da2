package warehouse

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/demandfile"
)

// sameRootWords checks a group's points against the SQL's: the same periods, terms and best
// ranks, and estimates within float32's precision (root_word_file.go).
func sameRootWords(t *testing.T, what string, got, want []RootWordPoint) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d points, want %d:\n got %v\nwant %v", what, len(got), len(want), got, want)
	}
	for i := range got {
		g, x := got[i], want[i]
		if !g.Start.Equal(x.Start) || g.Terms != x.Terms || g.BestRank != x.BestRank ||
			math.Abs(g.EstimatedSearches-x.EstimatedSearches) > max(1, 1e-6*x.EstimatedSearches) {
			t.Fatalf("%s: point %d is %+v, want %+v", what, i, g, x)
		}
	}
}

// storingPhrases runs test twice: with the demand file storing no phrase's group (the test
// sets are far below the real threshold) and storing every word's and word pair's.
func storingPhrases(t *testing.T, test func(t *testing.T, stored bool)) {
	defer func(n int) { phraseTerms = n }(phraseTerms)
	for _, stored := range []bool{false, true} {
		phraseTerms = demandfile.DefaultPhraseTerms
		if stored {
			phraseTerms = 1
		}
		t.Run(fmt.Sprintf("stored=%v", stored), func(t *testing.T) { test(t, stored) })
	}
}

// checkStoredPhrases fails unless dataset d's demand file stores groups when it should.
func checkStoredPhrases(t *testing.T, w *Warehouse, d *Dataset, stored bool) {
	t.Helper()
	f, err := demandfile.Open(demandFilePath(historyFilePath(w.asinIndex, d.ID)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if (f.StoredPhrases() > 0) != stored {
		t.Fatalf("%d phrases stored", f.StoredPhrases())
	}
}

// The demand file answers every group as the SQL over fact does: when just written, with new
// periods read from fact beside it, after a replaced and deleted periods (their columns left
// out), and after the next rewrite; scanned or stored.
func TestRootWordsFromTheDemandFile(t *testing.T) {
	storingPhrases(t, testRootWordsFromTheDemandFile)
}

func testRootWordsFromTheDemandFile(t *testing.T, stored bool) {
	ctx := context.Background()
	phrases := []string{"mat", "MUG", "zzz", "a", "mat cleaner 0", "", "Ü", "\x00", "a\x01", "cleaner"}
	churn(t, func(w *Warehouse, d *Dataset, stage string) {
		answered := 0
		check := func(stage string) {
			for _, phrase := range phrases {
				got, _, ok, err := w.rootWordFromFile(ctx, d, phrase, 0)
				if err != nil {
					t.Fatalf("%s, %q: %v", stage, phrase, err)
				}
				if ok && (phrase == "\x00" || phrase == "a\x01") {
					t.Fatalf("%s: %q answered from the file", stage, phrase)
				}
				if !ok {
					continue
				}
				answered++
				want, err := rootWordPointsSQL(ctx, w.db, d, phrase, "")
				if err != nil {
					t.Fatal(err)
				}
				sameRootWords(t, stage+", "+phrase, got, want)
				if via, err := w.RootWords(ctx, d, phrase); err != nil {
					t.Fatal(err)
				} else {
					sameRootWords(t, stage+", "+phrase+" through RootWords", via.Points, want)
				}
			}
		}
		check(stage) // the file as the background job left it, if any
		if err := w.RefreshHistoryFiles(ctx); err != nil {
			t.Fatal(err)
		}
		checkStoredPhrases(t, w, d, stored)
		answered = 0
		check(stage + ", file rewritten")
		if answered != len(phrases)-2 {
			t.Fatalf("%s: %d answers from a fresh demand file", stage, answered)
		}
	})
}

// A damaged demand file is dropped, the group answered from DuckDB, and the file rewritten.
func TestDamagedDemandFileIsRewritten(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	d := loadCompacted(t, w, 6, rand.New(rand.NewPCG(21, 22)))
	if err := w.RefreshHistoryFiles(ctx); err != nil {
		t.Fatal(err)
	}
	hist := historyFilePath(w.asinIndex, d.ID)
	path := demandFilePath(hist)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := rootWordPointsSQL(ctx, w.db, d, "mat", "")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"truncated": good[:len(good)-3], "empty": nil, "a term": flip(good, len(good)-200)} {
		w.hist.drop(hist, d.ID, false)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := w.RootWords(ctx, d, "mat")
		if err != nil {
			t.Fatal(err)
		}
		sameRootWords(t, name, got.Points, want)
		w.WaitBackground() // rewrites it
		if _, _, ok, err := w.rootWordFromFile(ctx, d, "mat", 0); !ok || err != nil {
			t.Fatalf("%s: not rewritten (%v)", name, err)
		}
	}
}

func flip(b []byte, at int) []byte {
	out := append([]byte(nil), b...)
	out[at] ^= 0x20
	return out
}

// With lowercase terms (Amazon's files) the demand file also picks the group's top terms,
// read then from term_stats by their strings: the same rows Explore finds, until a period
// newer than the file is loaded, when Explore answers again; scanned or stored.
func TestRootWordTopTermsFromTheDemandFile(t *testing.T) {
	storingPhrases(t, testRootWordTopTermsFromTheDemandFile)
}

func testRootWordTopTermsFromTheDemandFile(t *testing.T, stored bool) {
	ctx := context.Background()
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(23, 24))
	for n := range 6 {
		load(t, w, "ws", randomWeek(n, 80, rng))
	}
	w.WaitBackground()
	d := dataset(t, w, "ws")
	if !d.LowercaseTerms {
		t.Fatal("the dataset's terms are not all lowercase: the file's top terms are not tested")
	}
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.RefreshHistoryFiles(ctx); err != nil {
		t.Fatal(err)
	}
	compare := func(stage string, fromFile bool) {
		for _, phrase := range []string{"t1", "t", "7", "zz", "T2"} {
			_, top, ok, err := w.rootWordFromFile(ctx, d, phrase, rootWordTop)
			if err != nil || !ok || (top != nil) != fromFile {
				t.Fatalf("%s, %q: top terms from the file %v (%v, %v), want %v", stage, phrase, top != nil, ok, err, fromFile)
			}
			rw, err := w.RootWords(ctx, d, phrase)
			if err != nil {
				t.Fatal(err)
			}
			page, err := w.Explore(ctx, d, ExploreQuery{Search: phrase, Sort: "rank", Limit: rootWordTop, Window: 4})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rw.Top, page.Rows) {
				g, _ := json.Marshal(rw.Top)
				x, _ := json.Marshal(page.Rows)
				t.Fatalf("%s, %q:\n got %s\nwant %s", stage, phrase, g, x)
			}
			if phrase == "t" && len(rw.Top) != rootWordTop {
				t.Fatalf("%s: %d top terms for %q", stage, len(rw.Top), phrase)
			}
		}
	}
	checkStoredPhrases(t, w, d, stored)
	compare("the file current", true)
	// The files as they are now, put back after the next period's import has them rewritten.
	hist := historyFilePath(w.asinIndex, d.ID)
	saved := map[string][]byte{}
	for _, path := range []string{hist, demandFilePath(hist)} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		saved[path] = b
	}
	load(t, w, "ws", randomWeek(6, 80, rng))
	w.WaitBackground()
	w.hist.drop(hist, d.ID, true)
	for path, b := range saved {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d = dataset(t, w, "ws")
	compare("a newer period in fact", false)
}
