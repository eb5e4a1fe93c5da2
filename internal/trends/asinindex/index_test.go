package asinindex

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// decode is Key's inverse, to show that Key gives each code its own number.
func decode(k uint64) string {
	n := 1
	for n < 10 && k >= lengthOffset[n+1] {
		n++
	}
	v := k - lengthOffset[n]
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = alphabet[v%36]
		v /= 36
	}
	return string(b)
}

func TestKeyNumbersEachCodeOnce(t *testing.T) {
	for _, code := range []string{"0", "Z", "00", "0Z", "B07XJ8C8F5", "ZZZZZZZZZZ", "0000000000", "1961559173"} {
		k, ok := Key(code)
		if !ok || k >= 1<<keyBits || decode(k) != code {
			t.Errorf("Key(%q) = %d, %v; decodes to %q", code, k, ok, decode(k))
		}
	}
	if last, _ := Key("ZZZZZZZZZZ"); last >= 1<<keyBits {
		t.Errorf("the largest key %d is not below 2^52", last)
	}
	for _, code := range []string{"", "b07xj8c8f5", "B07XJ8C8F5X", "B07-J8C8F5", "B07XJ8C8F\x00", "É"} {
		if k, ok := Key(code); ok {
			t.Errorf("Key(%q) = %d, want refused", code, k)
		}
	}
}

func FuzzKey(f *testing.F) {
	for _, s := range []string{"B07XJ8C8F5", "0", "", "a", "ZZZZZZZZZZZ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		k, ok := Key(code)
		valid := len(code) >= 1 && len(code) <= 10 && strings.Trim(code, alphabet) == ""
		if ok != valid {
			t.Fatalf("Key(%q) ok = %v, want %v", code, ok, valid)
		}
		if ok && (k >= 1<<keyBits || decode(k) != code) {
			t.Fatalf("Key(%q) = %d, decodes to %q", code, k, decode(k))
		}
	})
}

// unmix inverts mix step by step, which shows each step (and so mix) is one to one.
func unmix(h uint64) uint64 {
	h = unshift(h, 29)
	h = (h * inverse(0x94d049bb133111eb)) & keyMask
	h = unshift(h, 32)
	h = (h * inverse(0xbf58476d1ce4e5b9)) & keyMask
	return unshift(h, 29)
}

func unshift(h uint64, s uint) uint64 {
	x := h
	for range keyBits / s {
		x = h ^ x>>s
	}
	return x
}

// inverse is a's multiplicative inverse modulo 2^52 (a odd), by Newton's iteration.
func inverse(a uint64) uint64 {
	x := a
	for range 6 {
		x *= 2 - a*x
	}
	return x & keyMask
}

func TestMixIsOneToOne(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		k := r.Uint64() & keyMask
		if h := mix(k); h > keyMask || unmix(h) != k {
			t.Fatalf("mix(%d) = %d, unmixes to %d", k, h, unmix(h))
		}
	}
}

func randomCodes(r *rand.Rand, n int) []string {
	seen := map[string]bool{}
	var codes []string
	for len(codes) < n {
		b := []byte("B0")
		for range 8 {
			b = append(b, alphabet[r.IntN(36)])
		}
		if c := string(b); !seen[c] {
			seen[c] = true
			codes = append(codes, c)
		}
	}
	return codes
}

func pairsOf(t *testing.T, codes []string, firstID int32) []Pair {
	var ps []Pair
	for i, c := range codes {
		p, ok := PairOf(c, firstID+int32(i))
		if !ok {
			t.Fatalf("PairOf(%q) refused", c)
		}
		ps = append(ps, p)
	}
	return ps
}

// checkIndex opens the index at path and checks that it finds every code of want with its id
// and none of absent.
func checkIndex(t *testing.T, path string, want map[string]int32, absent []string) *Index {
	t.Helper()
	x, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	if x.Len() != len(want) {
		t.Errorf("Len = %d, want %d", x.Len(), len(want))
	}
	for c, id := range want {
		if got, ok := x.Lookup(c); !ok || got != id {
			t.Fatalf("Lookup(%q) = %d, %v; want %d", c, got, ok, id)
		}
	}
	for _, c := range absent {
		if got, ok := x.Lookup(c); ok {
			t.Fatalf("Lookup(%q) = %d, want not found", c, got)
		}
	}
	checkFile(t, path, x, want, absent)
	return x
}

// checkFile opens the index at path on demand (OpenFile) and checks that it answers as x,
// the same file read whole, does.
func checkFile(t *testing.T, path string, x *Index, want map[string]int32, absent []string) {
	t.Helper()
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Len() != x.Len() || f.Coverage() != x.Coverage() {
		t.Errorf("OpenFile: Len %d, Coverage %+v; Open: %d, %+v", f.Len(), f.Coverage(), x.Len(), x.Coverage())
	}
	for c, id := range want {
		if got, ok, err := f.Lookup(c); err != nil || !ok || got != id {
			t.Fatalf("File.Lookup(%q) = %d, %v, %v; want %d", c, got, ok, err, id)
		}
	}
	for _, c := range absent {
		if got, ok, err := f.Lookup(c); ok || err != nil {
			t.Fatalf("File.Lookup(%q) = %d, %v, %v; want not found", c, got, ok, err)
		}
	}
}

func TestWriteThenExtend(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	codes := randomCodes(r, 30_000)
	path := filepath.Join(t.TempDir(), "asins.idx")
	first, second, absent := codes[:10_000], codes[10_000:20_000], codes[20_000:]
	cov := Coverage{MaxID: 10_000, Rows: 10_001, LastHash: HashCode(first[len(first)-1])}
	if err := Write(path, nil, pairsOf(t, first, 1), cov); err != nil {
		t.Fatal(err)
	}
	want := map[string]int32{}
	for i, c := range first {
		want[c] = int32(i + 1)
	}
	old := checkIndex(t, path, want, append(absent, "1961559173", "not a code"))
	if old.Coverage() != cov {
		t.Errorf("Coverage = %+v, want %+v", old.Coverage(), cov)
	}
	if c, err := ReadCoverage(path); err != nil || c != cov {
		t.Errorf("ReadCoverage = %+v, %v; want %+v", c, err, cov)
	}
	// Extending it rewrites the file whole, old entries and new, while the old one is mapped.
	cov2 := Coverage{MaxID: 20_000, Rows: 20_001, LastHash: HashCode(second[len(second)-1])}
	if err := Write(path, old, pairsOf(t, second, 10_001), cov2); err != nil {
		t.Fatal(err)
	}
	for i, c := range second {
		want[c] = int32(10_001 + i)
	}
	if x := checkIndex(t, path, want, absent); x.Coverage() != cov2 {
		t.Errorf("Coverage = %+v, want %+v", x.Coverage(), cov2)
	}
	if _, ok := old.Lookup(second[0]); ok {
		t.Error("the old mapping sees the new file's entries")
	}
	if entries, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp")); len(entries) > 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestEveryBucketSizeFindsTheCodes(t *testing.T) {
	if bucketBits(3_000_000) == bucketBits(9_000_000) {
		t.Fatal("bucketBits does not grow with the codes")
	}
	r := rand.New(rand.NewPCG(5, 6))
	codes := randomCodes(r, 5000)
	want := map[string]int32{}
	for i, c := range codes {
		want[c] = int32(i + 1)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "asins.idx")
	if err := Write(path, nil, pairsOf(t, codes, 1), Coverage{}); err != nil {
		t.Fatal(err)
	}
	x := checkIndex(t, path, want, nil)
	if x.bits != minBucketBits {
		t.Errorf("bits = %d, want %d", x.bits, minBucketBits)
	}
	// The same pairs spread over more buckets, as an index of more codes has them.
	for b := uint(minBucketBits + 1); b <= maxBucketBits; b++ {
		other := filepath.Join(dir, fmt.Sprintf("%d.idx", b))
		if err := writeFile(other, b, len(codes), x.pairs, Coverage{}); err != nil {
			t.Fatal(err)
		}
		if y := checkIndex(t, other, want, nil); y.bits != b {
			t.Errorf("bits = %d, want %d", y.bits, b)
		}
	}
	if err := writeFile(filepath.Join(dir, "short.idx"), minBucketBits, len(codes)+1, x.pairs, Coverage{}); err == nil {
		t.Error("writeFile accepted fewer pairs than it was told")
	}
}

func TestOpenRefusesADamagedFile(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	path := filepath.Join(t.TempDir(), "asins.idx")
	if err := Write(path, nil, pairsOf(t, randomCodes(r, 1000), 1), Coverage{MaxID: 1000, Rows: 1000}); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"truncated":       func(b []byte) []byte { return b[:len(b)-8] },
		"an entry":        func(b []byte) []byte { b[len(b)-3] ^= 1; return b },
		"the directory":   func(b []byte) []byte { b[headerSize+4*1000] ^= 1; return b },
		"the magic":       func(b []byte) []byte { b[0] = 'X'; return b },
		"the bucket size": func(b []byte) []byte { b[8] = 40; return b },
		"empty":           func(b []byte) []byte { return nil },
	}
	for what, spoil := range damage {
		if err := os.WriteFile(path, spoil(append([]byte(nil), good...)), 0o644); err != nil {
			t.Fatal(err)
		}
		if x, err := Open(path); err == nil {
			x.Close()
			t.Errorf("%s: Open accepted the file", what)
		}
		if x, err := OpenFile(path); err == nil {
			x.Close()
			t.Errorf("%s: OpenFile accepted the file", what)
		}
	}
	for _, spoilt := range [][]byte{nil, good[:headerSize-1], append([]byte("XX"), good[2:]...)} {
		if err := os.WriteFile(path, spoilt, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadCoverage(path); err == nil {
			t.Errorf("ReadCoverage read a header from %d bytes that are not an index's", len(spoilt))
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.idx")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not exist", err)
	}
	if _, err := OpenFile(filepath.Join(t.TempDir(), "missing.idx")); !os.IsNotExist(err) {
		t.Errorf("OpenFile of a missing file: %v, want not exist", err)
	}
}

func BenchmarkLookup(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	codes := randomCodes(r, 1_000_000)
	path := filepath.Join(b.TempDir(), "asins.idx")
	if err := Write(path, nil, pairsOfB(codes), Coverage{}); err != nil {
		b.Fatal(err)
	}
	x, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	b.ResetTimer()
	for i := range b.N {
		if _, ok := x.Lookup(codes[i%len(codes)]); !ok {
			b.Fatal(fmt.Sprint("missing ", codes[i%len(codes)]))
		}
	}
}

func pairsOfB(codes []string) []Pair {
	ps := make([]Pair, len(codes))
	for i, c := range codes {
		ps[i], _ = PairOf(c, int32(i+1))
	}
	return ps
}

// A file rewritten in place under an open File (not how the server replaces it: it renames a
// new one over it) makes lookups fail with an error, never read or allocate past the file.
func TestFileChangedInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	codes := randomCodes(r, 1000)
	path := filepath.Join(t.TempDir(), "asins.idx")
	if err := Write(path, nil, pairsOf(t, codes, 1), Coverage{MaxID: 1000, Rows: 1000}); err != nil {
		t.Fatal(err)
	}
	x, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Every other start 0 and every other the largest: each bucket spans 4G entries or less than none.
	dirEnd, _ := layout(x.bits)
	for at := headerSize; at+4 <= dirEnd; at += 4 {
		v := uint32(0)
		if (at-headerSize)/4%2 == 1 {
			v = ^uint32(0)
		}
		binary.LittleEndian.PutUint32(data[at:], v)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, c := range codes {
		if _, ok, err := x.Lookup(c); ok || err == nil {
			t.Fatalf("Lookup(%q) after the file changed: found %v, error %v; want an error", c, ok, err)
		}
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("%d lookups allocated %d bytes", len(codes), n)
	}
}
