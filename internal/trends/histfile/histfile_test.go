package histfile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func v(x int64) *int64 { return &x }

func testBlocks(n int) []*Block {
	var out []*Block
	for i := range n {
		b := &Block{Term: fmt.Sprintf("term %d", i), TermID: int64(i * 3)}
		b.Rows = []Row{{Values: []*int64{v(int64(i)), nil, v(-5)}}, {Values: []*int64{v(1 << 40), v(0), nil}}}
		b.Names[0] = []Name{{ID: 4, Name: "B0X", Title: "a title"}}
		b.Names[2] = []Name{{ID: -1, Name: "cat"}}
		out = append(out, b)
	}
	return out
}

func write(t *testing.T, path string, blocks []*Block) {
	t.Helper()
	w, err := Create(path, 9, 3, []Period{{Idx: 5, ImportedAt: 77}, {Idx: 7, ImportedAt: -3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if err := w.Add(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
}

// Every term is found with its block, absent ones are not, whether terms share hashes or not
// and whether they span several index slices.
func TestLookup(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprint("shared hash ", shared), func(t *testing.T) {
			if shared {
				defer func() { hash = Hash }()
				hash = func(s string) uint64 { return uint64(len(s)) } // "term 10".."term 99" share one
			}
			path := filepath.Join(t.TempDir(), "h.hist")
			blocks := testBlocks(3*sparseEvery + 5)
			write(t, path, blocks)
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Dataset() != 9 || !reflect.DeepEqual(f.Periods(), []Period{{5, 77}, {7, -3}}) {
				t.Fatalf("dataset %d periods %v", f.Dataset(), f.Periods())
			}
			for _, want := range blocks {
				got, err := f.Lookup(want.Term)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("%q: got %+v, %v", want.Term, got, err)
				}
			}
			for _, absent := range []string{"", "term 1000", "term 5x", "nope"} {
				if got, err := f.Lookup(absent); got != nil || err != nil {
					t.Fatalf("%q: got %+v, %v", absent, got, err)
				}
			}
		})
	}
}

// A damaged file is refused at Open (header, periods, index) or at Lookup (a block).
func TestDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.hist")
	write(t, path, testBlocks(50))
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for at := range len(good) {
		bad := append([]byte(nil), good...)
		bad[at] ^= 0x10
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := Open(path)
		if err != nil {
			continue
		}
		damaged := false
		for _, b := range testBlocks(50) {
			got, err := f.Lookup(b.Term)
			if err != nil {
				damaged = true
				continue
			}
			if !reflect.DeepEqual(got, b) {
				t.Fatalf("byte %d flipped: %q read as %+v", at, b.Term, got)
			}
		}
		f.Close()
		if !damaged && at >= headerSize {
			t.Fatalf("byte %d flipped went unnoticed", at)
		}
	}
	for _, n := range []int{0, 10, headerSize, len(good) - 1} {
		if err := os.WriteFile(path, good[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		if f, err := Open(path); err == nil {
			f.Close()
			t.Fatalf("truncated to %d bytes: opened", n)
		}
	}
}
