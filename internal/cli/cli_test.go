package cli

import (
	"bytes"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Asking for help prints the usage and returns at once: it never starts a server. Were serve
// to run, Run would block listening (the deadline below fails the test) and the port would
// answer.
func TestHelpPrintsUsageAndStartsNothing(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"-help"}, {"serve", "--help"}, {"serve", "-h"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			port := freePort(t)
			env := map[string]string{"DATA_DIR": t.TempDir(), "PORT": strconv.Itoa(port)}
			lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- Run(args, lookup, &stdout, &stderr) }()
			select {
			case code := <-done:
				if code != 0 {
					t.Fatalf("exit code %d, stderr %q", code, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("help did not return: it started something")
			}
			if !strings.HasPrefix(stdout.String(), "usage: sellertrends") {
				t.Fatalf("stdout %q, want the usage", stdout.String())
			}
			if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
				c.Close()
				t.Fatal("something listens on the configured port")
			}
		})
	}
}

// An unknown argument to serve is refused with the usage instead of being ignored.
func TestServeRefusesArguments(t *testing.T) {
	var stdout, stderr bytes.Buffer
	lookup := func(string) (string, bool) { return "", false }
	if code := Run([]string{"--port", "80"}, lookup, &stdout, &stderr); code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), `unexpected argument "--port"`) || !strings.Contains(stderr.String(), "usage:") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
