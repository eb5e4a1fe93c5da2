// Package localimport lets `sellertrends import` hand report files to a running server. DuckDB
// lets one process open the trends store, so while the server holds it the command sends each
// file's path over a Unix socket in DATA_DIR; the server imports the file (queued behind other
// imports like a web upload) and streams progress back, one JSON object per line. The socket is
// created with mode 0600 inside DATA_DIR, so only whoever can read the data can use it, and the
// server only reads paths it can open itself.
package localimport

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
)

// SocketName is the socket's file name inside DATA_DIR.
const SocketName = "import.sock"

// Request asks the server to import one file.
type Request struct {
	Workspace   string `json:"workspace"`
	Path        string `json:"path"` // absolute
	Marketplace string `json:"marketplace,omitempty"`
	Period      string `json:"period,omitempty"`
	Lenient     bool   `json:"lenient,omitempty"`
}

// Event is one line of the answer: progress of a report, a finished report, the error that
// ended the request, or the last line saying the file was imported. An answer that ends without
// the last line or an error (the server died) means the file was not imported.
type Event struct {
	Name  string `json:"name,omitempty"`
	Rows  int64  `json:"rows,omitempty"`
	Read  int64  `json:"read,omitempty"`
	Total int64  `json:"total,omitempty"`
	Done  string `json:"done,omitempty"`
	Error string `json:"error,omitempty"`
	// Imported ends a successful answer: every report of the file was imported.
	Imported bool `json:"imported,omitempty"`
}

// Runner imports what a request names, reporting through emit.
type Runner func(ctx context.Context, req Request, emit func(Event)) error

// Listen creates the socket in dataDir, replacing a stale one (the caller already holds the
// store, so no other server uses this directory).
func Listen(dataDir string) (net.Listener, error) {
	path := filepath.Join(dataDir, SocketName)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("import socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// Serve answers connections, one request each, until l is closed.
func Serve(l net.Listener, run Runner) {
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		go handle(conn, run)
	}
}

func handle(conn net.Conn, run Runner) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	line, err := r.ReadBytes('\n')
	if err != nil {
		return
	}
	enc := json.NewEncoder(conn)
	var req Request
	if err := json.Unmarshal(line, &req); err != nil || req.Workspace == "" || !filepath.IsAbs(req.Path) {
		enc.Encode(Event{Error: "bad request: want {\"workspace\", \"path\" (absolute)}"})
		return
	}
	// The client going away (Ctrl-C) cancels the import, which then leaves no trace.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		io.Copy(io.Discard, r)
		cancel()
	}()
	emit := func(e Event) {
		if err := enc.Encode(e); err != nil {
			cancel()
		}
	}
	if err := run(ctx, req, emit); err != nil {
		slog.Info("import through the socket failed", "path", req.Path, "error", err)
		emit(Event{Error: err.Error()})
		return
	}
	emit(Event{Imported: true})
}

// ErrServerGone is Send's error when the answer ended before saying the file was imported.
var ErrServerGone = errors.New("the server stopped before it finished importing the file: the file was not imported (run the command again)")

// Dial connects to a running server's socket in dataDir; it fails when no server listens.
func Dial(dataDir string) (net.Conn, error) {
	return net.Dial("unix", filepath.Join(dataDir, SocketName))
}

// Send sends req over conn and calls on for each event until the server is done. It returns
// nil only when the server said the file was imported: the server's error if the import
// failed there, ErrServerGone if the connection ended first.
func Send(conn net.Conn, req Request, on func(Event)) error {
	defer conn.Close()
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return err
	}
	dec := json.NewDecoder(conn)
	for {
		var e Event
		if err := dec.Decode(&e); err != nil {
			return fmt.Errorf("%w (%v)", ErrServerGone, err)
		}
		if e.Error != "" {
			return errors.New(e.Error)
		}
		if e.Imported {
			return nil
		}
		on(e)
	}
}
