package histfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// Writer writes a file: blocks are added in any order, and Finish puts the file in place
// atomically (a temporary file renamed over path), so a reader sees an old file or a new one.
type Writer struct {
	path, tmp string
	f         *os.File
	w         *bufio.Writer
	at        uint64
	dataset   int64
	columns   int
	periods   []Period
	entries   []entry
}

// Create starts a file at path for a dataset's periods, rows of columns values each.
func Create(path string, dataset int64, columns int, periods []Period) (*Writer, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	w := &Writer{path: path, tmp: f.Name(), f: f, w: bufio.NewWriterSize(f, 1<<20), at: headerSize,
		dataset: dataset, columns: columns, periods: slices.Clone(periods)}
	if _, err := w.w.Write(make([]byte, headerSize)); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// TempPattern matches the temporary files of Writers for path (a process killed while writing
// leaves one behind).
func TempPattern(path string) string { return path + ".*.tmp" }

// Add writes one term's block.
func (w *Writer) Add(b *Block) error {
	encodeMu.Lock()
	data := encoder.EncodeAll(encode(b, w.columns), nil)
	encodeMu.Unlock()
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(data, castagnoli))
	if _, err := w.w.Write(sum[:]); err != nil {
		return err
	}
	if _, err := w.w.Write(data); err != nil {
		return err
	}
	w.entries = append(w.entries, entry{hash(b.Term), w.at, uint32(4 + len(data))})
	w.at += uint64(4 + len(data))
	return nil
}

// Finish writes the periods, the index and the header, and renames the file into place.
func (w *Writer) Finish() error {
	sortEntries(w.entries)
	tail := make([]byte, periodSize*len(w.periods)+entrySize*len(w.entries))
	for i, p := range w.periods {
		binary.LittleEndian.PutUint32(tail[i*periodSize:], uint32(p.Idx))
		binary.LittleEndian.PutUint64(tail[i*periodSize+4:], uint64(p.ImportedAt))
	}
	index := tail[periodSize*len(w.periods):]
	for i, e := range w.entries {
		putEntry(index[i*entrySize:], e)
	}
	head := make([]byte, headerSize)
	copy(head, magic)
	le := binary.LittleEndian
	le.PutUint32(head[8:], uint32(w.columns))
	le.PutUint32(head[12:], uint32(len(w.periods)))
	le.PutUint64(head[16:], uint64(w.dataset))
	le.PutUint64(head[24:], uint64(len(w.entries)))
	le.PutUint64(head[32:], w.at)
	le.PutUint32(head[40:], crc32.Update(crc32.Checksum(head[:40], castagnoli), castagnoli, tail))
	err := errors.Join(writeAll(w.w, tail), w.w.Flush())
	if err == nil {
		_, err = w.f.WriteAt(head, 0)
	}
	if err == nil {
		err = w.f.Sync()
	}
	if err = errors.Join(err, w.f.Close()); err != nil {
		os.Remove(w.tmp)
		return err
	}
	if err := os.Rename(w.tmp, w.path); err != nil {
		os.Remove(w.tmp)
		return err
	}
	return nil
}

// Abort drops the file being written.
func (w *Writer) Abort() {
	w.f.Close()
	os.Remove(w.tmp)
}

func writeAll(w io.Writer, b []byte) error {
	_, err := w.Write(b)
	return err
}

// File is an open file. Its methods may be called from several goroutines at once; Close
// must come after every other call.
type File struct {
	f        *os.File
	dataset  int64
	columns  int
	periods  []Period
	entries  uint64
	indexAt  uint64
	sparse   []uint64 // the hash of every sparseEvery-th index entry
	fileSize uint64
}

// Open opens the file at path and checks its header, periods and index.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	x, err := parse(f)
	if err != nil {
		f.Close()
		return nil, errorf("%s: %w", filepath.Base(path), err)
	}
	return x, nil
}

func parse(f *os.File) (*File, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := uint64(st.Size())
	head := make([]byte, headerSize)
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:8]) != magic {
		return nil, errors.New("not a history file")
	}
	le := binary.LittleEndian
	x := &File{f: f, columns: int(le.Uint32(head[8:])), dataset: int64(le.Uint64(head[16:])),
		entries: le.Uint64(head[24:]), fileSize: size}
	nPeriods := uint64(le.Uint32(head[12:]))
	periodsAt := le.Uint64(head[32:])
	x.indexAt = periodsAt + periodSize*nPeriods
	if periodsAt < headerSize || x.entries > size/entrySize || x.indexAt > size || size-x.indexAt != entrySize*x.entries {
		return nil, errors.New("truncated or overlong")
	}
	tail := make([]byte, size-periodsAt)
	if _, err := f.ReadAt(tail, int64(periodsAt)); err != nil {
		return nil, err
	}
	if crc32.Update(crc32.Checksum(head[:40], castagnoli), castagnoli, tail) != le.Uint32(head[40:]) {
		return nil, errors.New("checksum mismatch")
	}
	for i := range nPeriods {
		p := tail[i*periodSize:]
		x.periods = append(x.periods, Period{int32(le.Uint32(p)), int64(le.Uint64(p[4:]))})
	}
	index := tail[periodSize*nPeriods:]
	var last uint64
	for i := range x.entries {
		e := getEntry(index[i*entrySize:])
		if e.hash < last || e.offset < headerSize || e.length < 4 || e.offset+uint64(e.length) > periodsAt {
			return nil, errors.New("bad index")
		}
		last = e.hash
		if i%sparseEvery == 0 {
			x.sparse = append(x.sparse, e.hash)
		}
	}
	return x, nil
}

// Dataset is the dataset the file was written for.
func (x *File) Dataset() int64 { return x.dataset }

// Columns is how many values each row holds.
func (x *File) Columns() int { return x.columns }

// Periods are the periods the file holds, with the imports their rows came from.
func (x *File) Periods() []Period { return x.periods }

// Size is the file's size in bytes.
func (x *File) Size() int64 { return int64(x.fileSize) }

// Lookup returns term's block; nil when the file holds no block for it (no rows in the
// file's periods). An error means the file is damaged.
func (x *File) Lookup(term string) (*Block, error) {
	h := hash(term)
	// The last sparse entry below h starts the slice (entries with h may begin in the slice
	// before the first sparse entry equal to h).
	i, _ := slices.BinarySearch(x.sparse, h)
	for at := uint64(max(i-1, 0)) * sparseEvery; at < x.entries; at += 2 * sparseEvery {
		n := min(x.entries-at, 2*sparseEvery)
		buf := make([]byte, n*entrySize)
		if _, err := x.f.ReadAt(buf, int64(x.indexAt+at*entrySize)); err != nil {
			return nil, err
		}
		for k := range n {
			e := getEntry(buf[k*entrySize:])
			if e.hash > h {
				return nil, nil
			}
			if e.hash < h {
				continue
			}
			b, err := x.block(e)
			if err != nil {
				return nil, err
			}
			if b.Term == term { // not a term that only shares the hash
				return b, nil
			}
		}
	}
	return nil, nil
}

func (x *File) block(e entry) (*Block, error) {
	buf := make([]byte, e.length)
	if _, err := x.f.ReadAt(buf, int64(e.offset)); err != nil {
		return nil, err
	}
	if crc32.Checksum(buf[4:], castagnoli) != binary.LittleEndian.Uint32(buf) {
		return nil, errCorrupt
	}
	data, err := decoder.DecodeAll(buf[4:], nil)
	if err != nil {
		return nil, errCorrupt
	}
	return decode(data, x.columns)
}

// Close closes the file. A nil file may be closed.
func (x *File) Close() error {
	if x == nil {
		return nil
	}
	return x.f.Close()
}
