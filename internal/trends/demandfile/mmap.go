package demandfile

import (
	"os"

	"golang.org/x/sys/unix"
)

var pageSize = uint64(os.Getpagesize())

// mapRows maps rows from to to (exclusive) read-only and returns their bytes and the call that
// unmaps them. The pages stay in the page cache after the unmapping; only the process's view
// of them goes, so a group adds nothing lasting to the process's resident memory. A file
// shortened on disk after Open faults on access: Group's goroutines turn that into an error
// (debug.SetPanicOnFault).
func (x *File) mapRows(from, to uint64) ([]byte, func(), error) {
	at := headerSize + from*x.rowSize
	start := at &^ (pageSize - 1)
	end := headerSize + to*x.rowSize
	data, err := unix.Mmap(int(x.f.Fd()), int64(start), int(end-start), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data[at-start:], func() { unix.Munmap(data) }, nil
}
