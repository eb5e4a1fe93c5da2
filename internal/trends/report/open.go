package report

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// Options are what the caller knows about a file.
type Options struct {
	Marketplace string  // "amazon.com", "US", an SP-API id or "walmart.com"; "" if not given
	Period      *Period // nil if not given
	Lenient     bool    // skip bad rows and report them instead of failing
	// Name is the file's original name when path is a temporary copy (uploads): Amazon's download
	// names carry the marketplace and period.
	Name string

	// reopen reads the report again from its start (Open sets it): a file whose share unit is
	// decided per file is read twice (csvSource.decideUnit).
	reopen func() (io.ReadCloser, error)
}

// Meta describes one report once its layout, marketplace and period are resolved.
type Meta struct {
	Layout      Layout `json:"layout"`
	Marketplace string `json:"marketplace"`
	Period      Period `json:"period"`
	Name        string `json:"name"`
	// Rolling is set for Walmart files, whose "week" is a rolling 7-day window.
	Rolling bool `json:"rolling,omitempty"`
}

// maxSkipped caps the skipped rows a lenient import keeps (the count is always exact).
const maxSkipped = 100

// Source streams the rows of one report.
type Source struct {
	meta     Meta
	next     func() (Row, error)
	counter  *countingReader
	total    int64
	rows     atomic.Int64
	lenient  bool
	skipped  []ParseError
	nSkipped int
	warnings []string
	closers  []io.Closer
}

// Meta returns the report's layout, marketplace and period.
func (s *Source) Meta() Meta { return s.meta }

// Next returns the next row, io.EOF at the end, or a *ParseError (in lenient mode rows with bad
// values are skipped and recorded instead; a broken file fails in either mode).
func (s *Source) Next() (Row, error) {
	var last *ParseError
	for {
		r, err := s.next()
		if pe, ok := err.(*ParseError); ok && s.lenient && pe.skippable() {
			if last != nil && *pe == *last {
				// The reader did not move past the error: skipping it again would never end.
				pe.Broken = true
				return Row{}, pe
			}
			last = pe
			s.nSkipped++
			if len(s.skipped) < maxSkipped {
				s.skipped = append(s.skipped, *pe)
			}
			continue
		}
		if err == nil {
			s.rows.Add(1)
		}
		return r, err
	}
}

// Progress reports rows returned so far and bytes read of the total; safe from another goroutine.
func (s *Source) Progress() (rows, bytesRead, bytesTotal int64) {
	return s.rows.Load(), s.counter.n.Load(), s.total
}

// Warnings are what the file does that is accepted but worth saying (columns it has that its
// layout lacks).
func (s *Source) Warnings() []string { return s.warnings }

// Skipped returns the rows a lenient read skipped (at most 100) and how many there were.
func (s *Source) Skipped() ([]ParseError, int) { return s.skipped, s.nSkipped }

// Close releases the file.
func (s *Source) Close() error {
	var first error
	for i := len(s.closers) - 1; i >= 0; i-- {
		if err := s.closers[i].Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Open reads path and returns the reports it holds: one for a CSV or JSON file (optionally
// gzipped), one per .csv/.json entry of a zip. Compression is recognised by magic bytes.
func Open(path string, opts Options) ([]*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	name := filepath.Base(path)
	if opts.Name != "" {
		name = filepath.Base(opts.Name)
	}
	switch {
	case n >= 4 && bytes.Equal(magic[:], []byte("PK\x03\x04")):
		f.Close()
		return openZip(path, opts)
	case n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		opts.reopen = func() (io.ReadCloser, error) { return openGzip(path) }
		counter := &countingReader{r: f}
		gz, err := gzip.NewReader(counter)
		if err != nil {
			f.Close()
			return nil, &ParseError{Expected: "not a readable gzip file: " + err.Error()}
		}
		src, err := newSource(gz, strings.TrimSuffix(name, ".gz"), opts, counter, st.Size(), gz, f)
		return one(src, err)
	default:
		opts.reopen = func() (io.ReadCloser, error) { return os.Open(path) }
		counter := &countingReader{r: f}
		src, err := newSource(counter, name, opts, counter, st.Size(), f)
		return one(src, err)
	}
}

// openGzip opens the gzipped file at path for reading it decompressed.
func openGzip(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	gz, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{gz, f}, nil
}

func one(s *Source, err error) ([]*Source, error) {
	if err != nil {
		return nil, err
	}
	return []*Source{s}, nil
}

func openZip(path string, opts Options) ([]*Source, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, &ParseError{Expected: "not a readable zip file: " + err.Error()}
	}
	var out []*Source
	fail := func(err error) ([]*Source, error) {
		for _, s := range out {
			s.Close()
		}
		zr.Close()
		return nil, err
	}
	for _, e := range zr.File {
		lower := strings.ToLower(e.Name)
		if e.FileInfo().IsDir() || strings.HasPrefix(e.Name, "__MACOSX/") || !(strings.HasSuffix(lower, ".csv") || strings.HasSuffix(lower, ".json")) {
			continue
		}
		rc, err := e.Open()
		if err != nil {
			return fail(fmt.Errorf("%s: %w", e.Name, err))
		}
		counter := &countingReader{r: rc}
		entryOpts := opts
		entryOpts.reopen = e.Open
		src, err := newSource(counter, e.Name, entryOpts, counter, int64(e.UncompressedSize64), rc)
		if err != nil {
			rc.Close()
			return fail(fmt.Errorf("%s: %w", e.Name, err))
		}
		out = append(out, src)
	}
	if len(out) == 0 {
		return fail(fileError("the zip holds no .csv or .json report"))
	}
	out[len(out)-1].closers = append([]io.Closer{zr}, out[len(out)-1].closers...)
	return out, nil
}

// newSource strips a BOM, decides between JSON and CSV, and resolves the report's meta.
func newSource(r io.Reader, name string, opts Options, counter *countingReader, total int64, closers ...io.Closer) (*Source, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	first, err := firstNonSpace(br)
	if err != nil {
		return nil, fileError("empty file")
	}
	s := &Source{counter: counter, total: total, lenient: opts.Lenient, closers: closers}
	if first == '{' || first == '[' {
		err = s.initJSON(br, name, opts)
	} else {
		err = s.initCSV(br, name, opts)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

func firstNonSpace(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			br.Discard(1)
		default:
			return b[0], nil
		}
	}
}
