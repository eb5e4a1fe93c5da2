// Package demandfile is a per-dataset file that sums the demand of every term containing a
// phrase, period by period, without a query engine: a dense matrix of one float32 weight
// (a term's estimated searches in a period, 0 when it was not ranked) per term and period,
// and the terms' lowercased strings in the same order. A group scans the strings for the
// phrase and adds up the matching terms' rows, reading only those rows.
//
// DuckDB stored the same numbers as lists per term and decoded every list of a vector once one
// term matched, so a common phrase read ~2 GB per group; here a group reads the strings (tens of
// MB) and its own terms' rows.
package demandfile

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// The file, little-endian: a header (headerSize bytes); the rows (rows x columns float32);
// the terms (each term's bytes then a zero byte, in row order); the marks (the offset within
// the terms of every markEvery-th row's term, so a group can split the terms into pieces);
// the periods (periodSize bytes each: index, import time); the frequent phrases' groups
// (frequent.go). The header's checksum covers the header, the terms, the marks, the periods
// and the phrases, checked at Open; the rows are checked for size only (reading 2 GB at every
// open would cost more than it protects).
const (
	magic      = "STDMND02"
	headerSize = 64
	periodSize = 12
	markEvery  = 8192
	separator  = 0
	escape     = 1 // a zero byte inside a term
)

// Period is a column of the file: a period with the import its weights came from.
type Period struct {
	Idx        int32
	ImportedAt int64 // Unix microseconds
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrDamaged reports a file whose contents do not add up.
var ErrDamaged = errors.New("demand file damaged")

// header is the fixed part at the start of the file.
type header struct {
	columns  uint32
	dataset  int64
	rows     uint64
	termsLen uint64
	periods  uint32
	sum      uint32
	phrases  uint64 // the phrase section's length
}

func (h *header) put(b []byte) {
	le := binary.LittleEndian
	copy(b, magic)
	le.PutUint32(b[8:], h.columns)
	le.PutUint64(b[12:], uint64(h.dataset))
	le.PutUint64(b[20:], h.rows)
	le.PutUint64(b[28:], h.termsLen)
	le.PutUint32(b[36:], h.periods)
	le.PutUint64(b[44:], h.phrases)
}

func getHeader(b []byte) (header, bool) {
	le := binary.LittleEndian
	if string(b[:8]) != magic {
		return header{}, false
	}
	return header{columns: le.Uint32(b[8:]), dataset: int64(le.Uint64(b[12:])), rows: le.Uint64(b[20:]),
		termsLen: le.Uint64(b[28:]), periods: le.Uint32(b[36:]), sum: le.Uint32(b[40:]), phrases: le.Uint64(b[44:])}, true
}

// layout is where each part of a file with this header starts, and the file's size.
func (h *header) layout() (termsAt, marksAt, phrasesAt, size uint64) {
	termsAt = headerSize + h.rows*uint64(h.columns)*4
	marksAt = termsAt + h.termsLen
	phrasesAt = marksAt + 8*marks(h.rows) + periodSize*uint64(h.periods)
	return termsAt, marksAt, phrasesAt, phrasesAt + h.phrases
}

// marks is how many marks a file of rows rows holds.
func marks(rows uint64) uint64 { return (rows + markEvery - 1) / markEvery }
