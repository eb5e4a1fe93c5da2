//go:build linux

package asinindex

import (
	"io"
	"os"
	"syscall"
)

// mapFile reads the file at path into memory mapped for it alone, outside Go's heap, so
// closing the index returns the memory at once. The mapping asks for huge pages: an import's
// lookups land all over the index, and with 4 KiB pages nearly every one also missed the TLB.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() error { return nil }, nil
	}
	data, err := syscall.Mmap(-1, 0, int(st.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, err
	}
	release := func() error { return syscall.Munmap(data) }
	_ = syscall.Madvise(data, madvHugepage) // only a hint: without huge pages, lookups are slower
	if _, err := io.ReadFull(f, data); err != nil {
		release()
		return nil, nil, err
	}
	return data, release, nil
}

// madvHugepage is Linux's MADV_HUGEPAGE (the syscall package does not name it).
const madvHugepage = 14
