package asinindex

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// File is an index file read on demand, for a process that looks a few codes up now and then
// (a product page, a product filter): each lookup reads the two directory entries and the
// bucket it needs from the file, so none of the file stays in the process's memory. Open reads
// the whole file into memory, as an import's millions of lookups need; held open for the
// product pages, that copy (137 MB at 15M ASINs) was an eighth of the server's memory while
// answering. Its methods may be called from several goroutines at once.
type File struct {
	f *os.File
	header
}

// OpenFile opens the index file at path and checks it whole, as Open does, reading it in
// pieces.
func OpenFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	h, err := check(bufio.NewReaderSize(f, 1<<20), st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("asinindex: %s: %w", filepath.Base(path), err)
	}
	return &File{f: f, header: h}, nil
}

// maxBucket bounds the entries a lookup reads: buckets hold 2 to 4 codes on average, and a
// larger span means the file changed under the open index.
const maxBucket = 1 << 12

// Lookup returns code's id; false when the index does not hold the code.
func (x *File) Lookup(code string) (int32, bool, error) {
	k, ok := Key(code)
	if !ok {
		return 0, false, nil
	}
	h := mix(k)
	low := keyBits - x.bits
	bucket, rest := h>>low, h&(1<<low-1)
	var span [8]byte
	if _, err := x.f.ReadAt(span[:], headerSize+4*int64(bucket)); err != nil {
		return 0, false, fmt.Errorf("asinindex: %w", err)
	}
	le := binary.LittleEndian
	from, to := le.Uint32(span[:]), le.Uint32(span[4:])
	if to < from || to-from > maxBucket || uint64(to) > x.count {
		return 0, false, errors.New("asinindex: bad directory: the file changed after it was opened")
	}
	entries := make([]byte, 8*(to-from))
	_, entriesAt := layout(x.bits)
	if _, err := x.f.ReadAt(entries, int64(entriesAt)+8*int64(from)); err != nil {
		return 0, false, fmt.Errorf("asinindex: %w", err)
	}
	for i := 0; i < len(entries); i += 8 {
		if e := le.Uint64(entries[i:]); e>>32 == rest {
			return int32(uint32(e)), true, nil
		}
	}
	return 0, false, nil
}

// Coverage is what the index holds.
func (x *File) Coverage() Coverage { return x.coverage }

// Len is how many codes the index holds.
func (x *File) Len() int { return int(x.count) }

// Close closes the file. A nil File may be closed.
func (x *File) Close() error {
	if x == nil || x.f == nil {
		return nil
	}
	err := x.f.Close()
	x.f = nil
	return err
}
