package demandfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// Writer writes a file: rows are added in order, and Finish puts the file in place atomically
// (a temporary file renamed over path), so a reader sees an old file or a new one.
type Writer struct {
	path    string
	f       *os.File // the file being written: header, then rows
	rows    *bufio.Writer
	terms   *os.File // the terms, kept apart until Finish appends them
	termBuf *bufio.Writer
	termSum uint32
	h       header
	marks   []uint64
	periods []Period
	row     []byte
	tokens  *tokenCounter
	// PhraseTerms: a word or word pair found in at least this many terms has its group stored
	// (frequent.go); 0 stores none.
	PhraseTerms int
}

// Create starts a file at path for a dataset's periods, one column each, in this order.
func Create(path string, dataset int64, periods []Period) (*Writer, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	// The terms' own temporary is unlinked at once: nothing is left of it if the process dies.
	t, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err == nil {
		err = os.Remove(t.Name())
	}
	w := &Writer{path: path, f: f, terms: t, rows: bufio.NewWriterSize(f, 1<<20),
		h:       header{columns: uint32(len(periods)), dataset: dataset, periods: uint32(len(periods))},
		periods: slices.Clone(periods), row: make([]byte, 4*len(periods)), tokens: newTokenCounter(tokenCapacity),
		PhraseTerms: minPhraseTerms}
	if err != nil {
		w.Abort()
		return nil, err
	}
	w.termBuf = bufio.NewWriterSize(t, 1<<20)
	if _, err := w.rows.Write(make([]byte, headerSize)); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// TempPattern matches the temporary files of Writers for path (a process killed while writing
// leaves one behind).
func TempPattern(path string) string { return path + ".*.tmp" }

// Add writes one term's row: its lowercased string and a weight per column (0: not ranked in
// that period).
func (w *Writer) Add(term string, weights []float32) error {
	if len(weights) != int(w.h.columns) {
		return fmt.Errorf("demandfile: %d weights for %d columns", len(weights), w.h.columns)
	}
	for i, v := range weights {
		if v < 0 || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("demandfile: weight %v", v)
		}
		putFloat(w.row[4*i:], v)
	}
	if w.h.rows%markEvery == 0 {
		w.marks = append(w.marks, w.h.termsLen)
	}
	if _, err := w.rows.Write(w.row); err != nil {
		return err
	}
	// A zero byte inside a term is stored as escape; Group answers no phrase holding either
	// byte, so a phrase found in the stored string is found in the term at the same place.
	b := append([]byte(term), separator)
	for i := range len(b) - 1 {
		if b[i] == separator {
			b[i] = escape
		}
	}
	if w.PhraseTerms > 0 {
		w.tokens.addTerm(b[:len(b)-1])
	}
	w.termSum = crc32.Update(w.termSum, castagnoli, b)
	if _, err := w.termBuf.Write(b); err != nil {
		return err
	}
	w.h.rows++
	w.h.termsLen += uint64(len(b))
	return nil
}

// Finish appends the terms, the marks, the periods and the frequent phrases' groups, writes
// the header, and renames the file into place.
func (w *Writer) Finish() error {
	tail, err := w.writeBody()
	if err == nil {
		err = w.writePhrases(tail)
	}
	if err == nil {
		err = w.f.Sync()
	}
	w.terms.Close()
	if err = errors.Join(err, w.f.Close()); err != nil {
		os.Remove(w.f.Name())
		return err
	}
	if err := os.Rename(w.f.Name(), w.path); err != nil {
		os.Remove(w.f.Name())
		return err
	}
	return nil
}

// writeBody completes a file without phrases, which Group can read, and returns its tail (the
// marks and the periods).
func (w *Writer) writeBody() ([]byte, error) {
	err := errors.Join(w.rows.Flush(), w.termBuf.Flush())
	if err == nil {
		_, err = w.terms.Seek(0, io.SeekStart)
	}
	if err == nil {
		_, err = io.Copy(w.f, w.terms)
	}
	tail := make([]byte, 8*len(w.marks)+periodSize*len(w.periods))
	for i, m := range w.marks {
		binary.LittleEndian.PutUint64(tail[8*i:], m)
	}
	for i, p := range w.periods {
		at := tail[8*len(w.marks)+periodSize*i:]
		binary.LittleEndian.PutUint32(at, uint32(p.Idx))
		binary.LittleEndian.PutUint64(at[4:], uint64(p.ImportedAt))
	}
	if err == nil {
		_, err = w.f.Write(tail)
	}
	if err == nil {
		err = w.writeHeader(tail)
	}
	return tail, err
}

// writeHeader writes the header for a file whose tail (from the marks on) is tail.
func (w *Writer) writeHeader(tail []byte) error {
	head := make([]byte, headerSize)
	w.h.put(head)
	binary.LittleEndian.PutUint32(head[40:], checksum(head, w.termSum, tail))
	_, err := w.f.WriteAt(head, 0)
	return err
}

// writePhrases groups the frequent phrases by scanning the file written so far and appends
// their groups, with the top terms of the latest period's column.
func (w *Writer) writePhrases(tail []byte) error {
	if w.PhraseTerms <= 0 {
		return nil
	}
	phrases := w.tokens.frequent(w.PhraseTerms, maxPhrases)
	if len(phrases) == 0 {
		return nil
	}
	x, err := parse(w.f)
	if err != nil {
		return err
	}
	latest := 0
	for i, p := range w.periods {
		if p.Idx > w.periods[latest].Idx {
			latest = i
		}
	}
	groups := make([]*Group, len(phrases))
	for i, p := range phrases {
		if groups[i], err = x.scanGroup(p, latest, phraseTop); err != nil {
			return err
		}
	}
	section := encodePhrases(phrases, groups, latest, phraseTop)
	if _, err := w.f.Write(section); err != nil {
		return err
	}
	w.h.phrases = uint64(len(section))
	return w.writeHeader(append(tail, section...))
}

// checksum is the header's checksum: of its bytes but the checksum's own, the terms' checksum
// and the tail.
func checksum(head []byte, terms uint32, tail []byte) uint32 {
	var t [4]byte
	binary.LittleEndian.PutUint32(t[:], terms)
	sum := crc32.Checksum(head[:40], castagnoli)
	sum = crc32.Update(sum, castagnoli, head[44:])
	sum = crc32.Update(sum, castagnoli, t[:])
	return crc32.Update(sum, castagnoli, tail)
}

// Abort drops the file being written.
func (w *Writer) Abort() {
	if w.terms != nil {
		w.terms.Close()
	}
	w.f.Close()
	os.Remove(w.f.Name())
}

// tokenCapacity bounds the writer's token counter: a token in more than ~1/4096 of the
// words and pairs counted is kept, far below minPhraseTerms on a file large enough to store
// phrases.
const tokenCapacity = 4096

func putFloat(b []byte, v float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(v)) }
