package demandfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sample writes a file of n random terms over cols columns and returns it with its rows.
func sample(t *testing.T, n, cols int) (string, []string, [][]float32) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"yoga mat", "mat", "bath", "mattress", "cup", "ümlaut", "door", "", "nul\x00byte"}
	periods := make([]Period, cols)
	for i := range periods {
		periods[i] = Period{Idx: int32(10 + 2*i), ImportedAt: int64(1000 + i)}
	}
	path := filepath.Join(t.TempDir(), "d.dem")
	w, err := Create(path, 7, periods)
	if err != nil {
		t.Fatal(err)
	}
	var terms []string
	var rows [][]float32
	for i := range n {
		term := fmt.Sprintf("%s %d %s", words[rng.IntN(len(words))], i, words[rng.IntN(len(words))])
		row := make([]float32, cols)
		for c := range row {
			if rng.IntN(4) > 0 {
				row[c] = float32(rng.IntN(100000)) / 7
			}
		}
		if err := w.Add(term, row); err != nil {
			t.Fatal(err)
		}
		terms, rows = append(terms, term), append(rows, row)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	return path, terms, rows
}

// naive is the group computed term by term.
func naive(terms []string, rows [][]float32, phrase string, cols int) *Group {
	g := newGroup(cols)
	for i, term := range terms {
		if strings.Contains(term, phrase) {
			g.addRow(encodeRow(rows[i]))
		}
	}
	return g
}

func encodeRow(row []float32) []byte {
	w := &Writer{h: header{columns: uint32(len(row))}, row: make([]byte, 4*len(row))}
	for i, v := range row {
		putFloat(w.row[4*i:], v)
	}
	return w.row
}

func TestGroupAddsTheMatchingTerms(t *testing.T) {
	const cols = 9
	// Several pieces (markEvery terms each) and a short last one.
	path, terms, rows := sample(t, 3*markEvery+123, cols)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Dataset() != 7 || f.Rows() != len(terms) || len(f.Periods()) != cols || f.Periods()[2] != (Period{14, 1002}) {
		t.Fatalf("dataset %d, %d rows, periods %v", f.Dataset(), f.Rows(), f.Periods())
	}
	for _, phrase := range []string{"mat", "yoga mat", "ü", "7 ", "1", "", "nothing", "mat 0 ", "lb", "l"} { // "lb": not across a zero byte
		got, err := f.Group(phrase, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := naive(terms, rows, phrase, cols)
		for c := range cols {
			if got.Terms[c] != want.Terms[c] || got.Max[c] != want.Max[c] || !close(got.Sum[c], want.Sum[c]) {
				t.Fatalf("%q column %d: %d terms, sum %v, max %v; want %d, %v, %v", phrase, c,
					got.Terms[c], got.Sum[c], got.Max[c], want.Terms[c], want.Sum[c], want.Max[c])
			}
		}
		if phrase == "mat" && want.Terms[0] < 1000 {
			t.Fatalf("only %d terms with %q: the sample proves little", want.Terms[0], phrase)
		}
	}
}

// close: sums added in another order agree to a few units in the last place.
func close(a, b float64) bool { return a == b || (a-b)/b < 1e-12 && (b-a)/b < 1e-12 }

func TestPhrasesWithControlBytesAreLeftToTheStore(t *testing.T) {
	path, _, _ := sample(t, 10, 2)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, phrase := range []string{"nul\x00", "\x01", "a\x01b"} {
		if _, err := f.Group(phrase, 0, 0); !errors.Is(err, ErrPhrase) {
			t.Errorf("%q: %v", phrase, err)
		}
	}
}

func TestDamagedFilesAreRefused(t *testing.T) {
	path, _, _ := sample(t, markEvery+5, 3)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rowsEnd := headerSize + (markEvery+5)*3*4
	cases := map[string]func([]byte) []byte{
		"header":    func(b []byte) []byte { b[13] ^= 1; return b },
		"a term":    func(b []byte) []byte { b[rowsEnd+3] ^= 1; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-1] },
		"longer":    func(b []byte) []byte { return append(b, 0) },
		"the tail":  func(b []byte) []byte { b[len(b)-3] ^= 1; return b },
		"empty":     func([]byte) []byte { return nil },
		"magic":     func(b []byte) []byte { b[0] = 'X'; return b },
	}
	for name, damage := range cases {
		p := filepath.Join(t.TempDir(), "x.dem")
		if err := os.WriteFile(p, damage(append([]byte(nil), good...)), 0o600); err != nil {
			t.Fatal(err)
		}
		if f, err := Open(p); err == nil {
			f.Close()
			t.Errorf("%s: opened", name)
		}
	}
}

// A damaged weight (the checksum leaves the rows out) that would make a sum not a number,
// infinite or negative makes the group an error, not an answer.
func TestDamagedWeightsAreRefused(t *testing.T) {
	path, _, _ := sample(t, 50, 3)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, bits := range map[string]uint32{"NaN": 0x7fc00000, "+Inf": 0x7f800000, "negative": 0xd0000000} {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint32(b[headerSize+4:], bits) // row 0, column 1
		p := filepath.Join(t.TempDir(), "x.dem")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Group("", 0, 5); !errors.Is(err, ErrDamaged) {
			t.Errorf("%s: %v, want ErrDamaged", name, err)
		}
		f.Close()
	}
}

func TestWriterRefusesWhatItCannotStore(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(filepath.Join(dir, "d.dem"), 1, []Period{{1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add("a", []float32{1, 2}); err == nil {
		t.Fatal("two weights for one column were taken")
	}
	if err := w.Add("a", []float32{-1}); err == nil {
		t.Fatal("a negative weight was taken")
	}
	w.Abort()
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("an aborted writer left %v", left)
	}
}

func TestGroupTopKeepsTheBestWeightedTerms(t *testing.T) {
	const cols = 5
	path, terms, rows := sample(t, 2*markEvery+77, cols)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, phrase := range []string{"mat", "7", "nothing", ""} {
		for _, k := range []int{1, 20} {
			g, err := f.Group(phrase, cols-1, k)
			if err != nil {
				t.Fatal(err)
			}
			// The naive top: matching terms with a weight, by weight then row.
			var want []Top
			for i, term := range terms {
				if strings.Contains(term, phrase) && rows[i][cols-1] > 0 {
					want = append(want, Top{Term: strings.ReplaceAll(term, "\x00", "\x01"), Weight: rows[i][cols-1], row: uint64(i)})
				}
			}
			slices.SortFunc(want, func(a, b Top) int {
				if before(a, b) {
					return -1
				}
				return 1
			})
			want = want[:min(k, len(want))]
			if !slices.Equal(g.Top, want) {
				t.Fatalf("%q top %d:\n got %v\nwant %v", phrase, k, g.Top, want)
			}
			if phrase == "mat" && len(want) != k {
				t.Fatalf("%q: only %d terms", phrase, len(want))
			}
		}
	}
	if _, err := f.Group("a", cols, 3); err == nil {
		t.Fatal("a column past the last was taken")
	}
}

// withPhrasesFrom makes files of a few thousand terms store their frequent phrases.
func withPhrasesFrom(t *testing.T, terms int) {
	old := minPhraseTerms
	minPhraseTerms = terms
	t.Cleanup(func() { minPhraseTerms = old })
}

// The stored groups of the frequent phrases are the groups a scan finds, and Group answers
// from them only what they hold.
func TestFrequentPhrasesAnswerAsTheScanDoes(t *testing.T) {
	withPhrasesFrom(t, 500)
	const cols = 4
	path, terms, rows := sample(t, 2*markEvery+77, cols)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range []string{"mat", "yoga mat", "bath", "door"} {
		if f.phrases[p] == nil {
			t.Fatalf("%q not stored; stored: %v", p, slices.Collect(maps.Keys(f.phrases)))
		}
	}
	if f.phrases["yoga"] == nil || f.phrases["7"] != nil {
		t.Fatal("the stored phrases are not the words and pairs in 500 terms or more")
	}
	for p := range f.phrases {
		want := naive(terms, rows, p, cols)
		for _, column := range []int{cols - 1, 0} {
			for _, k := range []int{0, 5, phraseTop} {
				g, err := f.Group(p, column, k)
				if err != nil {
					t.Fatal(err)
				}
				scanned, err := f.scanGroup(p, column, k)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(g.Terms, want.Terms) || !slices.Equal(g.Max, want.Max) || !slices.Equal(g.Top, scanned.Top) {
					t.Fatalf("%q column %d top %d: stored %+v, scanned %+v", p, column, k, g, scanned)
				}
				for c := range g.Sum {
					if !close(g.Sum[c], want.Sum[c]) {
						t.Fatalf("%q column %d: sum %v, want %v", p, c, g.Sum[c], want.Sum[c])
					}
				}
			}
		}
	}
	// What the stored group does not hold is scanned: another column's top terms, more top
	// terms than were kept.
	if f.stored("mat", 0, 5) != nil || f.stored("mat", cols-1, phraseTop+1) != nil || f.stored("mat", cols-1, phraseTop) == nil || f.stored("mat", 0, 0) == nil {
		t.Fatal("stored answers what it does not hold")
	}
	g, err := f.Group("mat", cols-1, phraseTop+1)
	if err != nil || len(g.Top) != phraseTop+1 {
		t.Fatalf("%d top terms, %v", len(g.Top), err)
	}
}

// A damaged phrase section is a damaged file.
func TestDamagedPhrasesAreRefused(t *testing.T) {
	withPhrasesFrom(t, 100)
	path, _, _ := sample(t, 3000, 2)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil || len(f.phrases) == 0 {
		t.Fatalf("%v, %d phrases", err, len(f.phrases))
	}
	f.Close()
	for _, at := range []int{len(good) - 1, len(good) - 200, len(good) - 2000} {
		b := append([]byte(nil), good...)
		b[at] ^= 0x40
		p := filepath.Join(t.TempDir(), "x.dem")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if f, err := Open(p); err == nil {
			f.Close()
			t.Errorf("a byte %d from the end changed: opened", len(good)-at)
		}
	}
}

// Every token in more than n/(capacity+1) of n is found, however the others fall.
func TestTokenCounterKeepsTheFrequentTokens(t *testing.T) {
	c := newTokenCounter(8)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 9000 {
		switch {
		case i%5 == 0:
			c.addTerm([]byte("kids  toy"))
		default:
			c.addTerm(fmt.Appendf(nil, "rare%d", rng.IntN(100000)))
		}
	}
	got := c.frequent(1, 10)
	for _, want := range []string{"kids", "toy", "kids  toy"} {
		if !slices.Contains(got, want) {
			t.Fatalf("%q not found among %v", want, got)
		}
	}
	c.addTerm([]byte("nul\x01byte"))
	if c.counts["nul\x01byte"] > 0 {
		t.Fatal("a token Group refuses was counted")
	}
}
