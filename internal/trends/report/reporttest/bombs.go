// Package reporttest writes hostile report files for tests: gzip and zip files that expand to
// gigabytes (long lines, floods of blank space, repeated rows) in a few milliseconds, zips that
// lie about their sizes, hold thousands of entries or nest archives.
package reporttest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"hash/crc32"
	"os"
)

// Piece is Data written Times times (once when Times is 0).
type Piece struct {
	Data  []byte
	Times int
}

func (p Piece) times() int { return max(p.Times, 1) }

// Repeat is a piece of n copies of s, for pieces whose data is itself repetitive.
func Repeat(s string, n int) []byte { return bytes.Repeat([]byte(s), n) }

// GzipFile writes pieces as a gzip file of one member per copy: a piece is compressed once, so a
// gigabyte of output costs the compression of one copy. gzip readers read every member.
func GzipFile(path string, pieces ...Piece) error {
	var out bytes.Buffer
	for _, p := range pieces {
		var member bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
		zw.Write(p.Data)
		if err := zw.Close(); err != nil {
			return err
		}
		for range p.times() {
			out.Write(member.Bytes())
		}
	}
	return os.WriteFile(path, out.Bytes(), 0o600)
}

// Entry is one file of a zip: its pieces, deflated, or Raw bytes stored as they are.
type Entry struct {
	Name   string
	Pieces []Piece
	Raw    []byte
	// Declared, when not 0, is the uncompressed size written in the headers instead of the true one.
	Declared uint64
}

// ZipFile writes a zip of entries. A piece is deflated once by a fresh compressor, so its block
// refers to nothing before it and can be repeated as is.
func ZipFile(path string, entries ...Entry) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		if err := writeEntry(zw, e); err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeEntry(zw *zip.Writer, e Entry) error {
	if e.Raw != nil {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name, Method: zip.Store})
		if err != nil {
			return err
		}
		_, err = w.Write(e.Raw)
		return err
	}
	var body bytes.Buffer
	crc := crc32.NewIEEE()
	var size uint64
	for _, p := range e.Pieces {
		var block bytes.Buffer
		fw, _ := flate.NewWriter(&block, flate.BestCompression)
		fw.Write(p.Data)
		if err := fw.Flush(); err != nil { // a sync flush ends the block without ending the stream
			return err
		}
		for range p.times() {
			body.Write(block.Bytes())
			crc.Write(p.Data)
			size += uint64(len(p.Data))
		}
	}
	body.Write([]byte{0x03, 0x00}) // an empty final block
	h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, CRC32: crc.Sum32(), CompressedSize64: uint64(body.Len()), UncompressedSize64: size}
	if e.Declared != 0 {
		h.UncompressedSize64 = e.Declared
	}
	w, err := zw.CreateRaw(h)
	if err != nil {
		return err
	}
	_, err = w.Write(body.Bytes())
	return err
}

// ZipBytes returns a zip of entries in memory, to nest it in another.
func ZipBytes(dir string, entries ...Entry) ([]byte, error) {
	path := dir + "/nested.zip"
	if err := ZipFile(path, entries...); err != nil {
		return nil, err
	}
	defer os.Remove(path)
	return os.ReadFile(path)
}

// Report is a small valid Top Search Terms week (2026-04-05..2026-04-11, amazon.com) of rows rows.
func Report(rows int) []byte {
	var b bytes.Buffer
	b.WriteString(Meta + Header)
	for i := 1; i <= rows; i++ {
		b.WriteString(Row(i, fmt.Sprintf("term %d", i), "Title"))
	}
	return b.Bytes()
}

// Meta and Header begin a Top Search Terms week; Row writes one of its rows.
const (
	Meta   = `"Reporting Range=[""Weekly""]","Select week=[""Week 15 | 2026-04-05 - 2026-04-11 2026""]",,,,,,,,,,,,,,,,,,,` + "\n"
	Header = `"Search Frequency Rank","Search Term","Top Clicked Brand #1","Top Clicked Brands #2","Top Clicked Brands #3","Top Clicked Category #1","Top Clicked Category #2","Top Clicked Category #3","Top Clicked Product #1: ASIN","Top Clicked Product #1: Product Title","Top Clicked Product #1: Click Share","Top Clicked Product #1: Conversion Share","Top Clicked Product #2: ASIN","Top Clicked Product #2: Product Title","Top Clicked Product #2: Click Share","Top Clicked Product #2: Conversion Share","Top Clicked Product #3: ASIN","Top Clicked Product #3: Product Title","Top Clicked Product #3: Click Share","Top Clicked Product #3: Conversion Share","Reporting Date"` + "\n"
)

// Row is one data row of rank and term whose first product has the given title.
func Row(rank int, term, title string) string {
	return fmt.Sprintf(`"%d","%s","Brand","","","Cat","","","B0TEST%04d","%s","10.5","2.5","","","","","","","","","4/11/2026"`+"\n", rank, term, rank%10000, title)
}

// WeekName is a file name that says amazon.com and the week of Report.
const WeekName = "US_Top_Search_Terms_Simple_Week_2026_04_11.csv"
