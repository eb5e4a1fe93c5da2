package server

import (
	"net/http"
	"time"
)

// Timeouts bound how long one client may hold a connection. Handlers that stream for longer
// (uploads, CSV exports) extend their own deadlines as they make progress (httpx.KeepReading,
// httpx.KeepWriting).
type Timeouts struct {
	ReadHeader time.Duration // request line and headers
	Read       time.Duration // the whole request, body included
	Write      time.Duration // from the end of the headers to the end of the answer
	Idle       time.Duration // a kept-alive connection waiting for its next request
}

// DefaultTimeouts leave room for the slowest ordinary answer (the 25 s long poll of an import
// job) and none for a client that trickles its headers or sits idle.
var DefaultTimeouts = Timeouts{ReadHeader: 10 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute}

// HTTPServer is the http.Server the command runs h in.
func HTTPServer(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
}
