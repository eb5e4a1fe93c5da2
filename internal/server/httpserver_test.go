package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

func TestDefaultTimeoutsAreSet(t *testing.T) {
	srv := HTTPServer(http.NotFoundHandler(), DefaultTimeouts)
	for name, d := range map[string]time.Duration{"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout, "WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout} {
		if d <= 0 {
			t.Errorf("%s is %v: a client can hold a connection open", name, d)
		}
	}
	// The long poll of an import job waits 25 s: it must fit in the write timeout.
	if srv.WriteTimeout < 30*time.Second {
		t.Errorf("WriteTimeout %v is shorter than the import long poll", srv.WriteTimeout)
	}
}

var short = Timeouts{ReadHeader: 300 * time.Millisecond, Read: 300 * time.Millisecond, Write: 300 * time.Millisecond, Idle: 300 * time.Millisecond}

// serveTest runs h in HTTPServer with the short timeouts and returns its address.
func serveTest(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := HTTPServer(h, short)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedWithin reads c until the server closes it, failing if that takes longer than limit.
func closedWithin(t *testing.T, c net.Conn, limit time.Duration) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(limit))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server still holds the connection after %v", limit)
	}
}

func TestSlowHeadersAreCutOff(t *testing.T) {
	addr := serveTest(t, http.NotFoundHandler())
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Half a request line, then nothing: a slowloris client.
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	closedWithin(t, c, 5*time.Second)
}

func TestIdleConnectionIsClosed(t *testing.T) {
	addr := serveTest(t, http.NotFoundHandler())
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.Close {
		t.Fatal("the server closed after the answer; the idle timeout is not what is tested")
	}
	closedWithin(t, c, 5*time.Second)
}

// An upload that keeps sending for longer than the read and write timeouts succeeds when the
// handler reads through httpx.KeepReading; one that stalls is cut off.
func TestLongUploadOutlastsTheReadTimeout(t *testing.T) {
	stream := httpx.Stream{Step: 300 * time.Millisecond, Limit: time.Minute}
	addr := serveTest(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, httpx.KeepReading(w, r.Body, stream))
		if err != nil {
			return
		}
		fmt.Fprintf(w, "%d", n)
	}))
	pr, pw := io.Pipe()
	go func() {
		tick := time.NewTicker(50 * time.Millisecond) // a slow client: 20 chunks over a second
		defer tick.Stop()
		for range 20 {
			<-tick.C
			if _, err := pw.Write([]byte(strings.Repeat("x", 100))); err != nil {
				return
			}
		}
		pw.Close()
	}()
	res, err := http.Post("http://"+addr+"/", "application/octet-stream", pr)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "2000" {
		t.Fatalf("answer %q, want the 2000 bytes counted", body)
	}

	// A client that sends a little and stops is cut off after the step.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nxxxx")
	closedWithin(t, c, 5*time.Second)
}

// A download produced for longer than the write timeout arrives whole through httpx.KeepWriting.
func TestLongExportOutlastsTheWriteTimeout(t *testing.T) {
	stream := httpx.Stream{Step: 300 * time.Millisecond, Limit: time.Minute}
	addr := serveTest(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := httpx.KeepWriting(w, stream)
		flush := http.NewResponseController(w)
		tick := time.NewTicker(50 * time.Millisecond) // a slow query: 20 rows over a second
		defer tick.Stop()
		for range 20 {
			<-tick.C
			io.WriteString(out, "row\n")
			flush.Flush()
		}
	}))
	res, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || strings.Count(string(body), "row\n") != 20 {
		t.Fatalf("got %d rows (%v), want 20", strings.Count(string(body), "row\n"), err)
	}
}
