package forward_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/server"
	"github.com/sellertrends/sellertrends/internal/trends/forward"
)

// A forwarding server runs with the same timeouts as any: an upload or a CSV export passing
// through it for longer than its read and write timeouts still arrives whole.
func TestLongTransfersOutlastTheForwardersTimeouts(t *testing.T) {
	owner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			n, _ := io.Copy(io.Discard, r.Body)
			fmt.Fprintf(w, "%d", n)
			return
		}
		tick := time.NewTicker(50 * time.Millisecond) // a slow export: 20 rows over a second
		defer tick.Stop()
		for range 20 {
			<-tick.C
			io.WriteString(w, "row\n")
			http.NewResponseController(w).Flush()
		}
	}))
	defer owner.Close()
	u, _ := url.Parse(owner.URL)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	short := 300 * time.Millisecond
	front := server.HTTPServer(forward.New(u, []byte("test-secret")), server.Timeouts{ReadHeader: short, Read: short, Write: short, Idle: short})
	go front.Serve(ln)
	defer front.Close()
	base := "http://" + ln.Addr().String()

	res, err := http.Get(base + "/api/trends/ws/datasets/1/terms.csv")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || strings.Count(string(body), "row\n") != 20 {
		t.Fatalf("export through the forwarder: %d rows (%v), want 20", strings.Count(string(body), "row\n"), err)
	}

	pr, pw := io.Pipe()
	go func() {
		tick := time.NewTicker(50 * time.Millisecond) // a slow upload: 20 chunks over a second
		defer tick.Stop()
		for range 20 {
			<-tick.C
			if _, err := pw.Write([]byte(strings.Repeat("x", 100))); err != nil {
				return
			}
		}
		pw.Close()
	}()
	res, err = http.Post(base+"/api/trends/ws/imports", "application/octet-stream", pr)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "2000" {
		t.Fatalf("upload through the forwarder: %q, want 2000 bytes counted", body)
	}
}
