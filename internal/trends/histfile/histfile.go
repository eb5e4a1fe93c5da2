// Package histfile is a per-dataset file of term histories: for each term one self-contained,
// zstd-compressed block (its rows for every period the file holds and the names they use),
// found by the hash of the term string through an index sorted by hash. A lookup is two reads
// of the file (a slice of the index, then the block), with no query engine involved.
package histfile

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The file, little-endian: a header (headerSize bytes); the blocks, each a crc32 of the
// compressed bytes then the bytes; the periods (periodSize bytes each: index, import time);
// the index (entrySize bytes each: term hash, block offset, block length), sorted by hash.
// The header's checksum covers the header, the periods and the index, checked at Open; each
// block's is checked when it is read.
const (
	magic      = "STHIST02"
	headerSize = 64
	periodSize = 12
	entrySize  = 20
	// sparseEvery: one index entry in sparseEvery is kept in memory, so a lookup reads one
	// slice of at most sparseEvery entries.
	sparseEvery = 128
)

// Period is a period the file holds, with the import its rows came from.
type Period struct {
	Idx        int32
	ImportedAt int64 // Unix microseconds
}

// Name is one dictionary entry a block's rows refer to by ID.
type Name struct {
	ID          int64
	Name, Title string
}

// Row is a term's row in one period: Values are the columns as the store has them (nil: null).
type Row struct {
	Values []*int64
}

// Block is one term's history as the file stores it.
type Block struct {
	Term   string
	TermID int64
	Rows   []Row
	Names  [3][]Name // asin (code, title), brand, category
}

// Hash is the index key of a term.
func Hash(term string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(term))
	return h.Sum64()
}

// hash is Hash; tests make terms share one.
var hash = Hash

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var (
	encoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	encodeMu   sync.Mutex
)

// encode serialises a block: varints; the rows column by column, each value as its difference
// from the column's previous value (zigzagged, plus one; 0 is null), so a period index one
// above the last, a rank near the last, or the same product as last period take one byte and
// compress further.
func encode(b *Block, columns int) []byte {
	var buf []byte
	str := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	str(b.Term)
	buf = binary.AppendVarint(buf, b.TermID)
	for _, names := range b.Names {
		buf = binary.AppendUvarint(buf, uint64(len(names)))
		for _, n := range names {
			buf = binary.AppendVarint(buf, n.ID)
			str(n.Name)
			str(n.Title)
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(b.Rows)))
	for _, r := range b.Rows {
		if len(r.Values) != columns {
			panic("histfile: row of the wrong width")
		}
	}
	for c := range columns {
		var prev int64
		for _, r := range b.Rows {
			v := r.Values[c]
			if v == nil {
				buf = append(buf, 0)
				continue
			}
			d := *v - prev
			prev = *v
			buf = binary.AppendUvarint(buf, uint64(d<<1^(d>>63))+1)
		}
	}
	return buf
}

var errCorrupt = errors.New("histfile: corrupt block")

// decoder of encode's format.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = errCorrupt, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err, r.b = errCorrupt, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err, r.b = errCorrupt, nil
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func decode(data []byte, columns int) (*Block, error) {
	r := &reader{b: data}
	b := &Block{Term: r.str(), TermID: r.varint()}
	for k := range b.Names {
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			return nil, errCorrupt
		}
		for range n {
			b.Names[k] = append(b.Names[k], Name{ID: r.varint(), Name: r.str(), Title: r.str()})
		}
	}
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		return nil, errCorrupt
	}
	b.Rows = make([]Row, n)
	values := make([]int64, int(n)*columns)
	pointers := make([]*int64, int(n)*columns)
	for i := range b.Rows {
		b.Rows[i].Values = pointers[i*columns : (i+1)*columns : (i+1)*columns]
	}
	for c := range columns {
		var prev int64
		for i := range b.Rows {
			u := r.uvarint()
			if u == 0 {
				continue
			}
			u--
			v := &values[i*columns+c]
			*v = prev + (int64(u>>1) ^ -int64(u&1))
			prev = *v
			b.Rows[i].Values[c] = v
		}
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errCorrupt
	}
	return b, nil
}

// entry is one index entry.
type entry struct {
	hash   uint64
	offset uint64
	length uint32
}

func sortEntries(entries []entry) {
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.offset, b.offset))
	})
}

func putEntry(buf []byte, e entry) {
	binary.LittleEndian.PutUint64(buf, e.hash)
	binary.LittleEndian.PutUint64(buf[8:], e.offset)
	binary.LittleEndian.PutUint32(buf[16:], e.length)
}

func getEntry(buf []byte) entry {
	le := binary.LittleEndian
	return entry{le.Uint64(buf), le.Uint64(buf[8:]), le.Uint32(buf[16:])}
}

func errorf(format string, args ...any) error { return fmt.Errorf("histfile: "+format, args...) }
