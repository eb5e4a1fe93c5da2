package warehouse

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/report"
)

// mixedWeek ranks 40 terms in week n, each with products and brands drawn from small pools, so
// a product or brand is in many terms' top 3, in different slots, and not in every week.
func mixedWeek(n int, rng *rand.Rand) *memSource {
	words := []string{"yoga mat", "Mat cleaner", "bath mat", "cup", "Mug", "door mat", "MATTRESS", "pillow"}
	src := week(n, nil)
	for i := range 40 {
		if rng.IntN(6) == 0 {
			continue
		}
		r := report.Row{Line: 3 + i, Term: fmt.Sprintf("%s %02d", words[i%len(words)], i), Rank: int32(1 + rng.IntN(9000))}
		for k := range 3 {
			if rng.IntN(5) == 0 {
				r.Products[k] = report.Product{ClickShare: report.NoShare, ConversionShare: report.NoShare}
				continue
			}
			r.Products[k] = report.Product{ASIN: fmt.Sprintf("B0LIST%04d", rng.IntN(12)), ClickShare: float32(1+rng.IntN(50)) / 100, ConversionShare: float32(rng.IntN(50)) / 100}
			r.Brands[k] = fmt.Sprintf("Brand %d", rng.IntN(6))
		}
		src.rows = append(src.rows, r)
	}
	return src
}

// loadCompacted loads weeks mixed weeks into workspace "ws" and rebuilds the dataset's copy
// with its lists and tops once the background job is done.
func loadCompacted(t *testing.T, w *Warehouse, weeks int, rng *rand.Rand) *Dataset {
	t.Helper()
	for i := range weeks {
		load(t, w, "ws", mixedWeek(i, rng))
	}
	d := dataset(t, w, "ws")
	w.WaitBackground()
	if err := w.Compact(context.Background(), d.ID); err != nil {
		t.Fatal(err)
	}
	return d
}

// withoutLists runs fn as if the dataset had no lists, so its questions take the SQL over fact.
func withoutLists(w *Warehouse, ds int, fn func()) {
	w.products.mu.Lock()
	delete(w.products.has, ds)
	w.products.mu.Unlock()
	defer w.products.set(ds)
	fn()
}

// sameAnswers checks that the root-word group and the product and brand pages answer the same
// from the lists (term_lists.go) as from fact alone.
func sameAnswers(t *testing.T, w *Warehouse, d *Dataset, stage string) {
	t.Helper()
	ctx := context.Background()
	if !w.products.holds(d.ID) {
		t.Fatalf("%s: the dataset has no lists, so the fast paths are not tested", stage)
	}
	ask := func() map[string]string {
		out := map[string]string{}
		put := func(key string, v any, err error) {
			if err != nil {
				t.Fatalf("%s: %s: %v", stage, key, err)
			}
			b, _ := json.Marshal(v)
			out[key] = string(b)
		}
		for _, phrase := range []string{"mat", "MUG", "zzz", "a"} {
			p, err := w.rootWordPointsDB(ctx, d, phrase) // the demand file's own test: root_word_file_test.go
			put("root words "+phrase, p, err)
		}
		for i := range 12 {
			p, err := w.ProductTerms(ctx, d, fmt.Sprintf("B0LIST%04d", i), 50)
			put(fmt.Sprintf("product %d", i), p, err)
			p, err = w.ProductTerms(ctx, d, fmt.Sprintf("B0LIST%04d", i), 3)
			put(fmt.Sprintf("product %d, 3 terms", i), p, err)
		}
		for i := range 6 {
			for _, limit := range []int{50, 3, 1} {
				p, err := w.BrandTerms(ctx, d, fmt.Sprintf("Brand %d", i), limit)
				put(fmt.Sprintf("brand %d, %d terms", i, limit), p, err)
			}
		}
		return out
	}
	fast := ask()
	var slow map[string]string
	withoutLists(w, d.ID, func() { slow = ask() })
	nonEmpty := 0
	for k, v := range slow {
		if fast[k] != v {
			t.Errorf("%s: %s differs:\nlists %s\nfact  %s", stage, k, fast[k], v)
		}
		if len(v) > 40 {
			nonEmpty++
		}
	}
	if nonEmpty < 10 {
		t.Errorf("%s: only %d non-empty answers: the comparison proves little", stage, nonEmpty)
	}
}

// The lists answer exactly as fact does after a rebuild, new periods (read from fact, then
// appended to the copy), a replaced period and a deleted one.
func TestListsAnswerAsFactDoes(t *testing.T) {
	churn(t, func(*Warehouse, *Dataset, string) {})
}

// The tops (term_tops.go) answer exactly as fact does for products and brands in more terms
// than the lists serve, at the same steps, and prove some pages on their own.
func TestTopsAnswerAsFactDoes(t *testing.T) {
	defer func(n, k int) { maxListedTerms, topsKept = n, k }(maxListedTerms, topsKept)
	maxListedTerms, topsKept = 4, 5 // every product and brand is in more terms; periods keep 5
	proved := 0
	churn(t, func(w *Warehouse, d *Dataset, stage string) {
		if !w.tops.holds(d.ID) {
			t.Fatalf("%s: no tops", stage)
		}
		tx, err := beginTx(context.Background(), w.db)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		for id := 1; id <= 6; id++ { // the brands' ids
			match := fmt.Sprintf("(brand1 = %[1]d or brand2 = %[1]d or brand3 = %[1]d)", id)
			for _, limit := range []int{1, 3} {
				_, ok, err := presentTermsTop(context.Background(), tx, d.ID, "brand", id, match, limit)
				if err != nil {
					t.Fatalf("%s: %v", stage, err)
				}
				if ok {
					proved++
				}
			}
		}
	})
	if proved == 0 {
		t.Error("no page was proved from the tops: the comparison only tested the fallback")
	}
}

// churn loads a dataset and calls sameAnswers, then check, after a rebuild, with new periods in
// fact, appended, after a replacement, after deletions and after the next rebuild.
func churn(t *testing.T, check func(w *Warehouse, d *Dataset, stage string)) {
	ctx := context.Background()
	defer func(n int64) { listSlice = n }(listSlice)
	listSlice = 7 // several slices of the 40 terms
	w := openTemp(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 20 {
		load(t, w, "ws", mixedWeek(i, rng))
	}
	d := dataset(t, w, "ws")
	w.bg.Wait()
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, w, d, "after a rebuild")
	check(w, d, "after a rebuild")

	load(t, w, "ws", mixedWeek(20, rng), mixedWeek(21, rng))
	sameAnswers(t, w, d, "with two new periods in fact") // the background job may not have run yet
	check(w, d, "with two new periods in fact")
	w.bg.Wait()
	if _, appended, err := copyCoverage(ctx, w.db, d.ID); err != nil || appended == 0 {
		t.Fatalf("no period appended to the copy (%d, %v)", appended, err)
	}
	sameAnswers(t, w, d, "with two periods appended to the copy")
	check(w, d, "with two periods appended to the copy")

	load(t, w, "ws", mixedWeek(15, rng)) // a listed period, within the product pages' window
	sameAnswers(t, w, d, "after replacing a listed period")
	check(w, d, "after replacing a listed period")
	if err := w.DeletePeriod(ctx, d.ID, d.Kind, week0.AddDate(0, 0, 7*17)); err != nil {
		t.Fatal(err)
	}
	if err := w.DeletePeriod(ctx, d.ID, d.Kind, week0.AddDate(0, 0, 7*21)); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, w, d, "after deleting a listed and an appended period")
	check(w, d, "after deleting a listed and an appended period")
	w.bg.Wait()
	if err := w.Compact(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, w, d, "after the next rebuild")
	check(w, d, "after the next rebuild")
}

// A copy built before the tops (lists, no term_tops) gets them from ResumeCopies' background
// job, answering from fact meanwhile; deleting the workspace drops them with the copy.
func TestMissingTopsAreBuilt(t *testing.T) {
	ctx := context.Background()
	defer func(n int) { maxListedTerms = n }(maxListedTerms)
	maxListedTerms = 4
	path := filepath.Join(t.TempDir(), "trends.duckdb")
	w := openAt(t, path)
	d := loadCompacted(t, w, 10, rand.New(rand.NewPCG(5, 6)))
	if err := execAll(ctx, w.db, `drop table `+topsTable(d.ID), `drop table `+topsPeriodsTable(d.ID), `drop table `+topsItemsTable(d.ID)); err != nil {
		t.Fatal(err)
	}
	closeChecked(t, w)

	w = openAt(t, path)
	defer closeChecked(t, w)
	if w.tops.holds(d.ID) || !w.products.holds(d.ID) {
		t.Fatalf("on open: tops %v, lists %v; want no tops and the lists", w.tops.holds(d.ID), w.products.holds(d.ID))
	}
	sameAnswers(t, w, d, "without tops")
	if err := w.ResumeCopies(ctx); err != nil {
		t.Fatal(err)
	}
	w.WaitBackground()
	if !w.tops.holds(d.ID) {
		t.Fatal("ResumeCopies built no tops")
	}
	sameAnswers(t, w, d, "with the tops built in the background")

	if err := w.DeleteWorkspace(ctx, "ws"); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := w.db.QueryRowContext(ctx, `select count(*) from duckdb_tables() where database_name = ? and table_name like '%\_'||?::varchar escape '\'`,
		copyDB, d.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d tables of the deleted dataset left in the copy file (%v)", left, err)
	}
}

// A product or brand page whose snapshot began before the lists and tops were committed
// answers from fact, as its snapshot holds them not: it used to read the flags set after the
// commit and fail with "Table with name term_items_1 does not exist".
func TestAPageOlderThanTheListsAnswersFromFact(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	d := loadCompacted(t, w, 10, rand.New(rand.NewPCG(7, 8)))
	want, err := w.ProductTerms(ctx, d, "B0LIST0001", 50)
	if err != nil || len(want.Terms) == 0 {
		t.Fatalf("with the lists: %v %v", want, err)
	}
	err = execAll(ctx, w.db, `drop table `+productsTable(d.ID), `drop table `+ranksTable(d.ID), `drop table `+itemsTable(d.ID),
		`drop table `+topsTable(d.ID), `drop table `+topsPeriodsTable(d.ID), `drop table `+topsItemsTable(d.ID))
	if err != nil {
		t.Fatal(err)
	}
	w.forgetDatasets([]Dataset{*d}) // the flags go as the tables did
	defer func() { presenceSnapshotTaken = func() {} }()
	presenceSnapshotTaken = func() {
		if err := w.ensureProducts(ctx, d.ID); err != nil {
			t.Error(err)
		}
	}
	got, err := w.ProductTerms(ctx, d, "B0LIST0001", 50)
	if err != nil {
		t.Fatalf("a page whose snapshot precedes the lists: %v", err)
	}
	if !w.products.holds(d.ID) || !w.tops.holds(d.ID) {
		t.Fatal("the lists were not built during the page")
	}
	a, _ := json.Marshal(want)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Errorf("answers differ:\nlists %s\nfact  %s", a, b)
	}
}

// A page that read which tables its dataset has before its workspace's deletion committed, and
// took its snapshot after, asks for tables that are gone. By then the dataset is marked
// deleted (Deleted), which is how the question's handler answers 404 instead of a server error.
func TestAPageOfAWorkspaceDeletedMeanwhileFindsItMarked(t *testing.T) {
	ctx := context.Background()
	w := openTemp(t)
	d := loadCompacted(t, w, 10, rand.New(rand.NewPCG(7, 8)))
	if _, err := w.ProductTerms(ctx, d, "B0LIST0001", 50); err != nil || w.Deleted(d.ID) {
		t.Fatalf("before the deletion: %v, marked deleted %v", err, w.Deleted(d.ID))
	}
	defer func() { presenceTablesRead = func() {} }()
	presenceTablesRead = func() {
		if err := w.DeleteWorkspace(ctx, "ws"); err != nil {
			t.Error(err)
		}
	}
	if _, err := w.ProductTerms(ctx, d, "B0LIST0001", 50); err == nil {
		t.Fatal("the page answered from the lists deleted before its snapshot: this test no longer sets up the race")
	}
	if !w.Deleted(d.ID) {
		t.Fatal("the page failed on its deleted tables, and its dataset is not marked deleted")
	}
}
