package report

import (
	"bytes"
	"encoding/binary"
	"io"
)

// zipDirectory reads how many entries a zip's end record claims and the size of its central
// directory, without reading the entries: archive/zip builds a File for each of them before
// anything can be checked, and a 4 GiB zip of empty entries holds tens of millions (gigabytes of
// Files). The size matters as much as the count, which archive/zip checks on 16 bits only. ok is
// false when the end record is not found; archive/zip then reports the damage itself.
func zipDirectory(f io.ReaderAt, size int64) (n, dirSize uint64, ok bool) {
	const endLen, maxComment, locatorLen = 22, 65535, 20
	tailLen := min(size, endLen+maxComment+locatorLen)
	tail := make([]byte, tailLen)
	if _, err := f.ReadAt(tail, size-tailLen); err != nil {
		return 0, 0, false
	}
	// The end record is the last signature whose comment fits in the file, as archive/zip finds it.
	at := -1
	for i := len(tail) - endLen; i >= 0; i-- {
		if bytes.Equal(tail[i:i+4], []byte("PK\x05\x06")) && i+endLen+int(binary.LittleEndian.Uint16(tail[i+20:])) <= len(tail) {
			at = i
			break
		}
	}
	if at < 0 {
		return 0, 0, false
	}
	n = uint64(binary.LittleEndian.Uint16(tail[at+10:]))
	dirSize = uint64(binary.LittleEndian.Uint32(tail[at+12:]))
	dirOffset := binary.LittleEndian.Uint32(tail[at+16:])
	if (n != 0xFFFF && dirSize != 0xFFFF && dirOffset != 0xFFFFFFFF) || at < locatorLen {
		return n, dirSize, true
	}
	// Zip64, as archive/zip reads it: a locator before the end record points at the zip64 end
	// record, whose numbers then win.
	loc := tail[at-locatorLen : at]
	if !bytes.Equal(loc[:4], []byte("PK\x06\x07")) {
		return n, dirSize, true
	}
	var rec [56]byte
	off := binary.LittleEndian.Uint64(loc[8:])
	if off > uint64(size) {
		return n, dirSize, true
	}
	if _, err := f.ReadAt(rec[:], int64(off)); err != nil || !bytes.Equal(rec[:4], []byte("PK\x06\x06")) {
		return n, dirSize, true
	}
	return binary.LittleEndian.Uint64(rec[32:]), binary.LittleEndian.Uint64(rec[40:]), true
}
