package demandfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// File is an open file. Its methods may be called from several goroutines at once; Close
// must come after every other call.
type File struct {
	f                         *os.File
	h                         header
	termsAt, marksAt, rowSize uint64
	marks                     []uint64 // with the terms' length appended
	periods                   []Period
	// phrases are the frequent phrases' stored groups, their top terms in column topColumn,
	// at most topKept each (frequent.go).
	phrases            map[string]*Group
	topColumn, topKept int
}

// Open opens the file at path and checks its header, terms, marks and periods.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	x, err := parse(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return x, nil
}

// Limits on what a header may claim, so a damaged one cannot overflow the layout.
const (
	maxColumns     = 1 << 16
	maxRows        = 1 << 36
	maxPhraseBytes = 1 << 30
)

func parse(f *os.File) (*File, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	head := make([]byte, headerSize)
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, ErrDamaged
	}
	h, ok := getHeader(head)
	if !ok || h.columns == 0 || h.columns > maxColumns || h.periods != h.columns || h.rows > maxRows || h.termsLen > maxRows*1024 || h.phrases > maxPhraseBytes {
		return nil, ErrDamaged
	}
	termsAt, marksAt, phrasesAt, size := h.layout()
	if size != uint64(st.Size()) {
		return nil, ErrDamaged
	}
	termSum := crc32.New(castagnoli)
	if _, err := io.Copy(termSum, io.NewSectionReader(f, int64(termsAt), int64(h.termsLen))); err != nil {
		return nil, err
	}
	tail := make([]byte, size-marksAt)
	if _, err := f.ReadAt(tail, int64(marksAt)); err != nil {
		return nil, err
	}
	if checksum(head, termSum.Sum32(), tail) != h.sum {
		return nil, ErrDamaged
	}
	x := &File{f: f, h: h, termsAt: termsAt, marksAt: marksAt, rowSize: 4 * uint64(h.columns)}
	n := marks(h.rows)
	for i := range n {
		m := binary.LittleEndian.Uint64(tail[8*i:])
		if m > h.termsLen || (i > 0 && m <= x.marks[i-1]) {
			return nil, ErrDamaged
		}
		x.marks = append(x.marks, m)
	}
	x.marks = append(x.marks, h.termsLen)
	for i := range uint64(h.periods) {
		p := tail[8*n+periodSize*i:]
		x.periods = append(x.periods, Period{int32(binary.LittleEndian.Uint32(p)), int64(binary.LittleEndian.Uint64(p[4:]))})
	}
	if h.phrases > 0 && !x.decodePhrases(tail[phrasesAt-marksAt:], int(h.columns)) {
		return nil, ErrDamaged
	}
	return x, nil
}

// Dataset is the dataset the file was written for.
func (x *File) Dataset() int64 { return x.h.dataset }

// Periods are the file's columns, with the imports their weights came from.
func (x *File) Periods() []Period { return x.periods }

// Rows is how many terms the file holds.
func (x *File) Rows() int { return int(x.h.rows) }

// Close closes the file. A nil file may be closed.
func (x *File) Close() error {
	if x == nil {
		return nil
	}
	return x.f.Close()
}

// Group is the demand of the terms containing a phrase, per column.
type Group struct {
	Terms []int64   // terms with a weight in the column
	Sum   []float64 // their weights' sum
	Max   []float32 // the largest weight
	// Top are the matching terms with the largest weights in the column Group was asked for,
	// largest first (ties: the earlier row first).
	Top []Top
}

// Top is a matching term with its weight in the column asked for.
type Top struct {
	Term   string // as stored: lowercased, a zero byte as escape
	Weight float32
	row    uint64
}

func newGroup(columns int) *Group {
	return &Group{Terms: make([]int64, columns), Sum: make([]float64, columns), Max: make([]float32, columns)}
}

func (g *Group) add(o *Group, k int) {
	for i := range g.Terms {
		g.Terms[i] += o.Terms[i]
		g.Sum[i] += o.Sum[i]
		g.Max[i] = max(g.Max[i], o.Max[i])
	}
	for _, t := range o.Top {
		g.keep(t, k)
	}
}

// keep adds t to the top k.
func (g *Group) keep(t Top, k int) {
	if len(g.Top) == k && !before(t, g.Top[k-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(g.Top, t, func(a, b Top) int {
		if before(a, b) {
			return -1
		}
		return 1
	})
	g.Top = slices.Insert(g.Top, i, t)
	if len(g.Top) > k {
		g.Top = g.Top[:k]
	}
}

// ErrPhrase: the phrase holds a byte the file does not store as it is (a zero byte or the
// one it escapes them with); ask the store instead.
var ErrPhrase = errors.New("demandfile: the phrase holds a control byte the file cannot match")

// Group adds up the rows of every term containing phrase (bytes, as stored: the caller
// lowercases both the same way), on as many goroutines as the process may run, and keeps the
// k matching terms with the largest weights in column (those ranked best in that period; k 0:
// none).
func (x *File) Group(phrase string, column, k int) (*Group, error) {
	if column < 0 || column >= int(x.h.columns) {
		return nil, fmt.Errorf("demandfile: no column %d", column)
	}
	if strings.IndexByte(phrase, separator) >= 0 || strings.IndexByte(phrase, escape) >= 0 {
		return nil, ErrPhrase
	}
	if g := x.stored(phrase, column, k); g != nil {
		return g, nil
	}
	return x.scanGroup(phrase, column, k)
}

// scanGroup is Group found by scanning the file.
func (x *File) scanGroup(phrase string, column, k int) (*Group, error) {
	total := newGroup(int(x.h.columns))
	pieces := len(x.marks) - 1
	var next atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), pieces) {
		wg.Go(func() {
			s := &scan{x: x, phrase: []byte(phrase), g: newGroup(int(x.h.columns)), column: column, k: k}
			var err error
			for i := int(next.Add(1) - 1); i < pieces && err == nil; i = int(next.Add(1) - 1) {
				err = s.piece(i)
			}
			mu.Lock()
			defer mu.Unlock()
			total.add(s.g, k)
			if err != nil && firstErr == nil {
				firstErr = err
			}
		})
	}
	wg.Wait()
	if firstErr == nil && !plausible(total) {
		firstErr = ErrDamaged
	}
	return total, firstErr
}

// plausible says whether a group's sums could come from weights: the checksum leaves the rows
// out, so a damaged cell is caught here when it makes a sum negative, infinite or not a number,
// which an answer could not carry.
func plausible(g *Group) bool {
	for _, s := range g.Sum {
		if !(s >= 0) || math.IsInf(s, 1) {
			return false
		}
	}
	return true
}

// scan is one goroutine's part of a Group: its buffers and its sums.
type scan struct {
	x         *File
	phrase    []byte
	g         *Group
	terms     []byte
	matches   []uint64
	rows      []byte
	column, k int
	// starts and ends are where each match's term lies in terms (for the top terms).
	starts, ends []int
}

// piece adds the matching terms of piece i (the rows from mark i to mark i+1).
func (s *scan) piece(i int) error {
	x := s.x
	from, to := x.marks[i], x.marks[i+1]
	first := uint64(i) * markEvery
	want := min(x.h.rows-first, markEvery)
	s.terms = grow(s.terms, int(to-from))
	if _, err := x.f.ReadAt(s.terms, int64(x.termsAt+from)); err != nil {
		return err
	}
	s.matches, s.starts, s.ends = s.matches[:0], s.starts[:0], s.ends[:0]
	buf, at, row := s.terms, 0, first
	for at < len(buf) {
		k := bytes.Index(buf[at:], s.phrase)
		if k < 0 {
			break
		}
		row += uint64(bytes.Count(buf[at:at+k], []byte{separator}))
		end := bytes.IndexByte(buf[at+k:], separator)
		if end < 0 {
			return ErrDamaged
		}
		s.matches = append(s.matches, row)
		if s.k > 0 {
			start := at + bytes.LastIndexByte(buf[at:at+k], separator) + 1 // at starts a term
			s.starts, s.ends = append(s.starts, start), append(s.ends, at+k+end)
		}
		at, row = at+k+end+1, row+1
	}
	row += uint64(bytes.Count(buf[at:], []byte{separator}))
	if row != first+want || len(buf) == 0 || buf[len(buf)-1] != separator {
		return ErrDamaged
	}
	return s.addRows()
}

// gapRows: matching rows at most this far apart are read with the rows between them in one
// read. A pread costs ~2 µs here, as much as copying ~16 kB from the page cache: on the 3M x
// 156 set, a gap of 16 kB took a common phrase's group from 307 to 205 ms against 4 kB, and
// wider gaps gained nothing more (reading the whole file is ~195 ms).
func (s *scan) gapRows() uint64 { return max(1, gapBytes/s.x.rowSize) }

const gapBytes = 16 << 10

// maxRead bounds one read's rows (and the goroutine's buffer).
const maxRead = 1 << 20

// addRows reads the matching rows, nearby ones together, and adds them up.
func (s *scan) addRows() error {
	x, m := s.x, s.matches
	perRead := max(1, maxRead/x.rowSize)
	for len(m) > 0 {
		n := 1
		for n < len(m) && m[n]-m[n-1] <= s.gapRows() && m[n]-m[0] < perRead {
			n++
		}
		span := (m[n-1] - m[0] + 1) * x.rowSize
		s.rows = grow(s.rows, int(span))
		if _, err := x.f.ReadAt(s.rows, int64(headerSize+m[0]*x.rowSize)); err != nil {
			return err
		}
		for j, r := range m[:n] {
			at := (r - m[0]) * x.rowSize
			row := s.rows[at : at+x.rowSize]
			s.g.addRow(row)
			if s.k > 0 {
				s.consider(row, r, len(s.matches)-len(m)+j)
			}
		}
		m = m[n:]
	}
	return nil
}

// consider keeps match j (row r) among the top terms if its weight in the column is one of
// the k largest so far.
func (s *scan) consider(row []byte, r uint64, j int) {
	t := Top{Weight: floats(row)[s.column], row: r}
	g := s.g
	if t.Weight == 0 || len(g.Top) == s.k && !before(t, g.Top[s.k-1]) {
		return
	}
	t.Term = string(s.terms[s.starts[j]:s.ends[j]])
	g.keep(t, s.k)
}

// before orders the top terms: larger weight first, then the earlier row.
func before(a, b Top) bool { return a.Weight > b.Weight || a.Weight == b.Weight && a.row < b.row }

// addRow adds one row's weights.
func (g *Group) addRow(row []byte) {
	weights := floats(row)
	terms, sum, mx := g.Terms[:len(weights)], g.Sum[:len(weights)], g.Max[:len(weights)]
	// Without branches on the weight (a 0 adds nothing to the sum and never raises the max,
	// weights being never negative): a group's rows mix zeros and weights unpredictably.
	for i, v := range weights {
		sum[i] += float64(v)
		mx[i] = max(mx[i], v)
		terms[i] += int64(nonZero(v))
	}
}

// nonZero is 1 for a weight, 0 for an empty cell.
func nonZero(v float32) int {
	if v != 0 {
		return 1
	}
	return 0
}

// floats views a row's bytes as its weights: the file is little-endian, as every machine we
// build for is (init checks), and reading them in place is a third of a group's time saved
// against decoding each.
func floats(row []byte) []float32 {
	if len(row) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&row[0])), len(row)/4)
}

func init() {
	var probe [4]byte
	binary.NativeEndian.PutUint32(probe[:], 1)
	if probe[0] != 1 {
		panic("demandfile: the file's float32 weights are read in place, which needs a little-endian machine")
	}
}

// grow returns b resized to n bytes, reusing its array when it is big enough.
func grow(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n)
}
