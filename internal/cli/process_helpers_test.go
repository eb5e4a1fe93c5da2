package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/trends/demo"
)

// The fault tests run the real binary: built once per test run, started, killed with SIGKILL or
// stopped with SIGTERM, and started again on the same data directory.

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

func sellertrendsBinary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sellertrends-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "sellertrends")
		out, err := exec.Command("go", "build", "-o", binaryPath, "../../cmd/sellertrends").CombinedOutput()
		if err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// proc is a running sellertrends process with its stderr read line by line.
type proc struct {
	cmd    *exec.Cmd
	lines  chan string // stderr and stdout lines
	exited chan struct{}
	mu     sync.Mutex
	output strings.Builder
}

func (p *proc) Output() string { p.mu.Lock(); defer p.mu.Unlock(); return p.output.String() }

func procEnv(dataDir string, env []string) []string {
	base := append(os.Environ(), "DATA_DIR="+dataDir, "AUTH_SECRET="+strings.Repeat("s", 32), "APP_ENV=development",
		"DATABASE_URL=", "REDIS_URL=", "LOG_LEVEL=info")
	return append(base, env...)
}

// runBinary runs the binary to its end and returns its output.
func runBinary(t *testing.T, dataDir string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(sellertrendsBinary(t), args...)
	cmd.Env = procEnv(dataDir, env)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// startProc runs the binary with args in the data directory's environment plus env.
func startProc(t *testing.T, dataDir string, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(sellertrendsBinary(t), args...)
	cmd.Env = procEnv(dataDir, env)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, lines: make(chan string, 10000), exited: make(chan struct{})}
	var readers sync.WaitGroup
	for _, r := range []io.Reader{stdout, stderr} {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for sc := bufio.NewScanner(r); sc.Scan(); {
				p.mu.Lock()
				p.output.WriteString(sc.Text() + "\n")
				p.mu.Unlock()
				select {
				case p.lines <- sc.Text():
				default:
				}
			}
		}()
	}
	go func() { readers.Wait(); cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.exited })
	return p
}

// waitFor reads the process's output until a line contains s; it fails the test if the
// process ends first or a minute passes.
func (p *proc) waitFor(t *testing.T, s string) string {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case line := <-p.lines:
			if strings.Contains(line, s) {
				return line
			}
		case <-p.exited:
			for {
				select {
				case line := <-p.lines:
					if strings.Contains(line, s) {
						return line
					}
				default:
					t.Fatalf("the process ended before saying %q:\n%s", s, p.Output())
				}
			}
		case <-timeout:
			t.Fatalf("no %q within a minute:\n%s", s, p.Output())
		}
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// serverProc starts `sellertrends serve` on a free port and waits until it listens. A tiny
// demo is built first, so the server does not generate the default one.
func serverProc(t *testing.T, dataDir string, env ...string) (*proc, *testkit.App) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dataDir, "trends.duckdb")); os.IsNotExist(err) {
		if out, err := runBinary(t, dataDir, nil, "demo", "--terms", "10", "--weeks", "1"); err != nil {
			t.Fatalf("demo: %v\n%s", err, out)
		}
	}
	port := freePort(t)
	// BASE_URL is the address the test's client uses, so the origin checks accept its writes.
	p := startProc(t, dataDir, append(env, fmt.Sprintf("PORT=%d", port), fmt.Sprintf("BASE_URL=http://127.0.0.1:%d", port)), "serve")
	p.waitFor(t, "listening on")
	return p, &testkit.App{URL: fmt.Sprintf("http://127.0.0.1:%d", port)}
}

// bigWeekFile writes a generated week of n terms as an Amazon CSV (long enough to be caught
// mid-import).
func bigWeekFile(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	g := demo.New(demo.Size{Terms: n, Weeks: 3, Seed: 3, End: time.Date(2026, 4, 12, 0, 0, 0, 0, time.UTC)})
	if err := demo.WriteTSTCSV(f, g.Week(2)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// uploadFile posts one file to the workspace's imports.
func uploadFile(t *testing.T, c *testkit.Client, app *testkit.App, ws, path string) (*http.Response, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("files", filepath.Base(path))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", app.URL+"/api/trends/"+ws+"/imports", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", app.URL)
	res, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res, raw
}
