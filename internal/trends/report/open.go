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
	// MaxExpanded caps what a compressed file may expand to in all (uploads: MAX_UPLOAD_BYTES,
	// the most an uncompressed upload may be); 0 leaves only the MaxExpansion ratio.
	MaxExpanded int64

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
	// The limits (limits.go): win bounds every record, expand (nil for a plain file) what a
	// compressed stream expands to; either one's error ends the read, lenient or not.
	br          *bufio.Reader
	win         *window
	expand      *expandCap
	recordStart int64        // where the next record begins, in the window's offsets
	follow      func() int64 // the JSON decoder's own idea of it (follows every record it reads)
}

// Meta returns the report's layout, marketplace and period.
func (s *Source) Meta() Meta { return s.meta }

// Next returns the next row, io.EOF at the end, or a *ParseError (in lenient mode rows with bad
// values are skipped and recorded instead; a broken file or a broken limit fails in either mode).
func (s *Source) Next() (Row, error) {
	var last *ParseError
	for {
		r, err := s.next()
		if s.win != nil { // nil only for a Source built without a stream (tests)
			s.recordStart = s.win.read - int64(s.br.Buffered()) // the parser stopped after a whole record
			if limit := s.limitError(); limit != nil {
				return Row{}, limit
			}
		}
		if err == nil {
			if pe := longField(&r, s.meta.Layout); pe != nil {
				err = pe
			}
		}
		if pe, ok := err.(*ParseError); ok && s.lenient && pe.skippable() {
			if last != nil && *pe == *last {
				// The reader did not move past the error: skipping it again would never end.
				pe.Broken = true
				return Row{}, pe
			}
			last = pe
			s.nSkipped++
			if len(s.skipped) < maxSkipped {
				kept := *pe
				kept.Value = shortValue(kept.Value)
				s.skipped = append(s.skipped, kept)
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

// limitError is the error of a limit the read broke, if any: parsers may wrap or mistake it.
func (s *Source) limitError() error {
	if s.expand != nil && s.expand.err != nil {
		return s.expand.err
	}
	if s.win.err != nil {
		return s.win.err
	}
	return nil
}

// followDecoder makes the window measure records from where the JSON decoder stands: it reads
// ahead by its own buffer and reads several records per row.
func (s *Source) followDecoder(offset func() int64) {
	parseStart := s.win.read - int64(s.br.Buffered())
	s.follow = func() int64 { return parseStart + offset() }
}

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
// gzipped), one per .csv/.json entry of a zip. Compression is recognised by magic bytes; a
// compressed file may expand to at most MaxExpansion times its size (and opts.MaxExpanded).
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
	name = shortName(name)
	switch {
	case n >= 4 && bytes.Equal(magic[:], []byte("PK\x03\x04")):
		srcs, err := openZip(f, st.Size(), opts)
		if err != nil {
			f.Close()
			return nil, err
		}
		last := srcs[len(srcs)-1] // the entries read f: the last report to close closes it
		last.closers = append([]io.Closer{f}, last.closers...)
		return srcs, nil
	case n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		counter := &countingReader{r: f}
		gz, err := gzip.NewReader(counter)
		if err != nil {
			f.Close()
			return nil, &ParseError{Expected: "not a readable gzip file: " + err.Error()}
		}
		limit := expandLimit(st.Size())
		if opts.MaxExpanded > 0 && opts.MaxExpanded < limit {
			limit = opts.MaxExpanded
		}
		capped := &expandCap{r: gz, max: limit, name: name, packed: st.Size()}
		opts.reopen = func() (io.ReadCloser, error) { // read again under the same cap
			rc, err := openGzip(path)
			if err != nil {
				return nil, err
			}
			return readCloser{&expandCap{r: rc, max: limit, name: name, packed: st.Size()}, rc}, nil
		}
		src, err := newSource(capped, strings.TrimSuffix(name, ".gz"), opts, counter, st.Size(), capped, gz, f)
		return one(src, err)
	default:
		opts.reopen = func() (io.ReadCloser, error) { return os.Open(path) }
		counter := &countingReader{r: f}
		src, err := newSource(counter, name, opts, counter, st.Size(), nil, f)
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

type readCloser struct {
	io.Reader
	io.Closer
}

func one(s *Source, err error) ([]*Source, error) {
	if err != nil {
		return nil, err
	}
	return []*Source{s}, nil
}

// shortName makes a file or entry name fit for messages and records: valid UTF-8, at most 255 bytes.
func shortName(name string) string {
	name = strings.ToValidUTF8(name, "\uFFFD")
	if len(name) > 255 {
		name = shortValue(name[:255])
	}
	return name
}

// openZip opens every report of the zip f. The central directory is sized before archive/zip
// reads it, and every entry's expansion is checked against its headers before it is opened and
// counted while it is read, since headers can lie.
func openZip(f *os.File, size int64, opts Options) ([]*Source, error) {
	if n, dir, ok := zipDirectory(f, size); ok && (n > MaxZipEntries || dir > MaxZipEntries*1024) {
		return nil, fileError("the zip holds %d entries in a %s directory; at most %d entries are read: upload the reports in smaller zips", n, sizeText(int64(dir)), MaxZipEntries)
	}
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return nil, &ParseError{Expected: "not a readable zip file: " + err.Error()}
	}
	if len(zr.File) > MaxZipEntries { // the end record understated them
		return nil, fileError("the zip holds %d entries; at most %d are read: upload the reports in smaller zips", len(zr.File), MaxZipEntries)
	}
	reports, nested := zipReports(zr)
	if len(reports) == 0 {
		if nested {
			return nil, fileError("the zip holds no .csv or .json report, only other archives: a zip or gzip inside a zip is not opened, upload the reports inside it")
		}
		return nil, fileError("the zip holds no .csv or .json report")
	}
	if len(reports) > MaxZipReports {
		return nil, fileError("the zip holds %d reports; at most %d are imported at once: upload them in smaller zips", len(reports), MaxZipReports)
	}
	whole := &budget{max: expandLimit(size), why: fmt.Sprintf("%d times its %s", MaxExpansion, sizeText(size))}
	if opts.MaxExpanded > 0 && opts.MaxExpanded < whole.max {
		whole.max, whole.why = opts.MaxExpanded, "MAX_UPLOAD_BYTES, the largest upload"
	}
	var declared uint64
	for _, e := range reports {
		packed := int64(min(e.CompressedSize64, uint64(size)))
		if limit := expandLimit(packed); e.UncompressedSize64 > uint64(limit) {
			return nil, expandError(shortName(e.Name), limit, packed)
		}
		if declared += e.UncompressedSize64; declared > uint64(whole.max) {
			return nil, fileError("the zip's reports expand to more than %s (%s): refused as a decompression bomb", sizeText(whole.max), whole.why)
		}
	}
	var out []*Source
	fail := func(err error) ([]*Source, error) {
		for _, s := range out {
			s.Close()
		}
		return nil, err
	}
	for _, e := range reports {
		name := shortName(e.Name)
		rc, err := e.Open()
		if err != nil {
			return fail(fmt.Errorf("%s: %w", name, err))
		}
		packed := int64(min(e.CompressedSize64, uint64(size)))
		capped := &expandCap{r: rc, max: expandLimit(packed), archive: whole, name: name, packed: packed}
		counter := &countingReader{r: capped}
		entryOpts := opts
		entryOpts.reopen = func() (io.ReadCloser, error) { // read again under the entry's cap
			rc, err := e.Open()
			if err != nil {
				return nil, err
			}
			return readCloser{&expandCap{r: rc, max: expandLimit(packed), name: name, packed: packed}, rc}, nil
		}
		src, err := newSource(counter, name, entryOpts, counter, int64(e.UncompressedSize64), capped, rc)
		if err != nil {
			rc.Close()
			return fail(fmt.Errorf("%s: %w", name, err))
		}
		out = append(out, src)
	}
	return out, nil
}

// zipReports lists the zip's report entries (.csv, .json) and says whether it holds archives.
func zipReports(zr *zip.Reader) (reports []*zip.File, nested bool) {
	for _, e := range zr.File {
		lower := strings.ToLower(e.Name)
		switch {
		case e.FileInfo().IsDir() || strings.HasPrefix(e.Name, "__MACOSX/"):
		case strings.HasSuffix(lower, ".csv") || strings.HasSuffix(lower, ".json"):
			reports = append(reports, e)
		case strings.HasSuffix(lower, ".zip") || strings.HasSuffix(lower, ".gz"):
			nested = true
		}
	}
	return reports, nested
}

// newSource strips a BOM, refuses nested archives, decides between JSON and CSV, and resolves
// the report's meta. Every byte reaches the parser through the record window.
func newSource(r io.Reader, name string, opts Options, counter *countingReader, total int64, capped *expandCap, closers ...io.Closer) (*Source, error) {
	s := &Source{counter: counter, total: total, lenient: opts.Lenient, closers: closers, expand: capped}
	s.win = newWindow(r, func() int64 {
		if s.follow != nil {
			return s.follow()
		}
		return s.recordStart
	})
	s.br = bufio.NewReaderSize(s.win, readAhead)
	if err := s.open(name, opts); err != nil {
		if limit := s.limitError(); limit != nil {
			return nil, limit
		}
		return nil, err
	}
	return s, nil
}

func (s *Source) open(name string, opts Options) error {
	br := s.br
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	first, err := firstNonSpace(br)
	if err != nil {
		if s.limitError() != nil {
			return err
		}
		return fileError("empty file")
	}
	if magic, _ := br.Peek(4); bytes.Equal(magic, []byte("PK\x03\x04")) || bytes.HasPrefix(magic, []byte{0x1f, 0x8b}) {
		return fileError("%s is itself an archive (a zip or gzip inside a compressed file is not opened): upload the report inside it", name)
	}
	if first == '{' || first == '[' {
		return s.initJSON(br, name, opts)
	}
	return s.initCSV(br, name, opts)
}

// firstNonSpace skips leading blank space a buffer at a time and returns the first other byte.
func firstNonSpace(br *bufio.Reader) (byte, error) {
	for {
		if _, err := br.Peek(1); err != nil {
			return 0, err
		}
		buf, _ := br.Peek(br.Buffered())
		rest := bytes.TrimLeft(buf, " \t\r\n")
		br.Discard(len(buf) - len(rest))
		if len(rest) > 0 {
			return rest[0], nil
		}
	}
}
