package httpx

import (
	"io"
	"net/http"
	"time"
)

// The server's read and write timeouts (server.DefaultTimeouts) cut off clients that stall. A
// handler that legitimately reads or writes for longer (an upload of many megabytes, a CSV
// export of every row) keeps going with these: each read or write that makes progress pushes
// the connection's deadlines forward by step, so only a client that stops for step is cut
// off, and never beyond limit after the handler started.

// Stream is how long a streaming handler may go on: step per read or write, limit in all.
type Stream struct{ Step, Limit time.Duration }

// LongStream suits uploads and exports: a minute without progress, two hours in all.
var LongStream = Stream{Step: time.Minute, Limit: 2 * time.Hour}

// KeepReading returns body whose reads extend the connection's read and write deadlines (the
// answer is written after the upload, whose reading may outlast the write timeout).
func KeepReading(w http.ResponseWriter, body io.ReadCloser, s Stream) io.ReadCloser {
	return &deadlineReader{ReadCloser: body, ext: newExtender(w, s)}
}

// KeepWriting returns a writer to w whose writes extend the connection's write deadline.
func KeepWriting(w http.ResponseWriter, s Stream) io.Writer {
	return &deadlineWriter{w: w, ext: newExtender(w, s)}
}

type extender struct {
	rc    *http.ResponseController
	step  time.Duration
	until time.Time
	last  time.Time
}

func newExtender(w http.ResponseWriter, s Stream) *extender {
	return &extender{rc: http.NewResponseController(w), step: s.Step, until: time.Now().Add(s.Limit)}
}

// next is the deadline to set now; ok is false when the last one set is still recent enough
// (a deadline per small read would cost a timer reset each time).
func (e *extender) next() (time.Time, bool) {
	now := time.Now()
	if now.Sub(e.last) < e.step/8 {
		return time.Time{}, false
	}
	e.last = now
	d := now.Add(e.step)
	if d.After(e.until) {
		d = e.until
	}
	return d, true
}

type deadlineReader struct {
	io.ReadCloser
	ext *extender
}

func (r *deadlineReader) Read(p []byte) (int, error) {
	if d, ok := r.ext.next(); ok {
		// Errors mean the writer cannot set deadlines (a test recorder): nothing to extend.
		_ = r.ext.rc.SetReadDeadline(d)
		_ = r.ext.rc.SetWriteDeadline(d)
	}
	return r.ReadCloser.Read(p)
}

type deadlineWriter struct {
	w   io.Writer
	ext *extender
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	if d, ok := w.ext.next(); ok {
		_ = w.ext.rc.SetWriteDeadline(d)
	}
	return w.w.Write(p)
}

// KeepWritingResponse is KeepWriting for a handler that needs a whole ResponseWriter (a
// reverse proxy): writes extend the write deadline; Unwrap lets http.ResponseController reach
// the connection's Flush and deadlines.
func KeepWritingResponse(w http.ResponseWriter, s Stream) http.ResponseWriter {
	return &deadlineResponse{ResponseWriter: w, ext: newExtender(w, s)}
}

type deadlineResponse struct {
	http.ResponseWriter
	ext *extender
}

func (w *deadlineResponse) Write(p []byte) (int, error) {
	if d, ok := w.ext.next(); ok {
		_ = w.ext.rc.SetWriteDeadline(d)
	}
	return w.ResponseWriter.Write(p)
}

func (w *deadlineResponse) Unwrap() http.ResponseWriter { return w.ResponseWriter }
