package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// binary builds the real sellertrends binary once for the remote-command tests.
var binary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "sellertrends-cli-test-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "sellertrends")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/sellertrends").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// cliRun is one running command: its output lines arrive on lines.
type cliRun struct {
	cmd   *exec.Cmd
	lines chan string
	all   strings.Builder
	mu    sync.Mutex
	done  chan error
}

// start runs the binary with a private config directory (where the token is kept).
func start(t *testing.T, home string, args ...string) *cliRun {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "HOME="+home, "DATA_DIR="+filepath.Join(home, "data"))
	cmd.Stderr = cmd.Stdout
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = nil
	errPipe, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &cliRun{cmd: cmd, lines: make(chan string, 1000), done: make(chan error, 1)}
	var wg sync.WaitGroup
	for _, p := range []interface{ Read([]byte) (int, error) }{pipe, errPipe} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(p)
			for sc.Scan() {
				r.mu.Lock()
				r.all.WriteString(sc.Text() + "\n")
				r.mu.Unlock()
				r.lines <- sc.Text()
			}
		}()
	}
	go func() { wg.Wait(); r.done <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return r
}

func (r *cliRun) output() string { r.mu.Lock(); defer r.mu.Unlock(); return r.all.String() }

// expect waits for an output line matching re (the command's own progress, not a timer).
func (r *cliRun) expect(t *testing.T, re string) []string {
	t.Helper()
	pat := regexp.MustCompile(re)
	deadline := time.After(90 * time.Second)
	for {
		select {
		case l := <-r.lines:
			if m := pat.FindStringSubmatch(l); m != nil {
				return m
			}
		case <-deadline:
			t.Fatalf("no line matching %q; output:\n%s", re, r.output())
		}
	}
}

// wait returns the command's exit error once it ends.
func (r *cliRun) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.done:
		return err
	case <-time.After(90 * time.Second):
		t.Fatalf("the command did not end; output:\n%s", r.output())
		return nil
	}
}

func run(t *testing.T, home string, args ...string) (string, error) {
	t.Helper()
	r := start(t, home, args...)
	err := r.wait(t)
	return r.output(), err
}

// The whole device flow through the real binary: login prints the code and link, honours
// slow_down (polling faster than the server allows, on purpose), and stores the token with mode
// 0600 once the user approves in a browser session; workspaces and import --server then use it
// (a second import of the same file adds nothing); logout forgets it and ends the session.
func TestRemoteLoginImportLogout(t *testing.T) {
	st := testkit.SQLite(t)
	app := testkit.Server(t, st, map[string]string{"AUTH_DEVICE_INTERVAL": "2s"})
	home := t.TempDir()
	user := app.SignUp(t, "seller@example.com", "password123")

	login := start(t, home, "login", "--server", app.URL, "--poll-every", "1s")
	m := login.expect(t, `open (\S+) and enter the code ([A-Z0-9]{4}-[A-Z0-9]{4})`)
	if m[1] != app.URL+"/device" {
		t.Errorf("verification link %q", m[1])
	}
	login.expect(t, `slow down: polling every 6s`)
	if res := user.Do("GET", "/api/auth/device?user_code="+m[2], nil); res.JSON(t)["client_id"] != "sellertrends-cli" {
		t.Fatalf("GET /device: %s", res.Body)
	}
	if res := user.Do("POST", "/api/auth/device/approve", map[string]any{"userCode": m[2]}); res.Status != 200 {
		t.Fatalf("approve: %d %s", res.Status, res.Body)
	}
	login.expect(t, `Signed in to .* as seller@example.com`)
	if err := login.wait(t); err != nil {
		t.Fatalf("login: %v\n%s", err, login.output())
	}
	credPath := filepath.Join(home, "config", "sellertrends", "credentials.json")
	info, err := os.Stat(credPath)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", info, err)
	}
	var creds struct {
		Servers map[string]struct{ Token string } `json:"servers"`
	}
	raw, _ := os.ReadFile(credPath)
	if err := json.Unmarshal(raw, &creds); err != nil || creds.Servers[app.URL].Token == "" {
		t.Fatalf("credentials: %s", raw)
	}
	token := creds.Servers[app.URL].Token

	out, err := run(t, home, "workspaces", "--server", app.URL)
	if err != nil || !strings.Contains(out, "personal-") || !strings.Contains(out, "demo") {
		t.Errorf("workspaces: %v\n%s", err, out)
	}
	sample, _ := filepath.Abs("../trends/testdata/US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	out, err = run(t, home, "import", "--server", app.URL, sample)
	if err != nil || !regexp.MustCompile(`imported 2026-04-05\.\.2026-04-11, \d+ search terms`).MatchString(out) {
		t.Fatalf("import --server: %v\n%s", err, out)
	}
	out, err = run(t, home, "import", "--server", app.URL, sample)
	if err != nil || !strings.Contains(out, "already imported (same content), skipped") {
		t.Errorf("second import: %v\n%s", err, out)
	}
	c := app.Client(t)
	var ws []map[string]any
	json.Unmarshal(c.Do("GET", "/api/workspaces", nil, "Authorization", "Bearer "+token).Body, &ws)
	ds := c.Do("GET", "/api/trends/"+ws[0]["id"].(string)+"/datasets", nil, "Authorization", "Bearer "+token).JSON(t)["datasets"].([]any)
	if len(ds) != 1 || ds[0].(map[string]any)["periods"] != float64(1) {
		t.Errorf("datasets after two imports of one file: %v", ds)
	}
	out, err = run(t, home, "import", "--server", app.URL, "--workspace", "demo", sample)
	if err == nil || !strings.Contains(out+fmt.Sprint(err), "read-only") {
		t.Errorf("import into the demo: %v\n%s", err, out)
	}

	if out, err := run(t, home, "logout", "--server", app.URL); err != nil || !strings.Contains(out, "Signed out of "+app.URL) {
		t.Errorf("logout: %v\n%s", err, out)
	}
	if res := c.Do("GET", "/api/auth/get-session", nil, "Authorization", "Bearer "+token); string(res.Body) != "null\n" {
		t.Errorf("the session survived logout: %s", res.Body)
	}
	out, err = run(t, home, "workspaces", "--server", app.URL)
	if err == nil || !strings.Contains(out, "not signed in") {
		t.Errorf("workspaces after logout: %v\n%s", err, out)
	}
}

// A denied code and an expired code end login with a clear error and no stored token.
func TestRemoteLoginDeniedAndExpired(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"AUTH_DEVICE_INTERVAL": "1s", "AUTH_DEVICE_CODE_EXPIRES_IN": "4s"})
		home := t.TempDir()
		user := app.SignUp(t, "seller@example.com", "password123")

		login := start(t, home, "login", "--server", app.URL)
		code := login.expect(t, `enter the code ([A-Z0-9]{4}-[A-Z0-9]{4})`)[1]
		user.Do("GET", "/api/auth/device?user_code="+code, nil)
		if res := user.Do("POST", "/api/auth/device/deny", map[string]any{"userCode": code}); res.Status != http.StatusOK {
			t.Fatalf("deny: %d %s", res.Status, res.Body)
		}
		if err := login.wait(t); err == nil || !strings.Contains(login.output(), "denied") {
			t.Errorf("denied login: %v\n%s", err, login.output())
		}

		login = start(t, home, "login", "--server", app.URL)
		login.expect(t, `enter the code`)
		if err := login.wait(t); err == nil || !strings.Contains(login.output(), "expired") {
			t.Errorf("expired login: %v\n%s", err, login.output())
		}
		if _, err := os.Stat(filepath.Join(home, "config", "sellertrends", "credentials.json")); !os.IsNotExist(err) {
			t.Errorf("a token was stored: %v", err)
		}
		out, err := run(t, home, "login", "--server", "http://trends.example.com")
		if err == nil || !strings.Contains(out, "use https") {
			t.Errorf("plain http to a remote host: %v\n%s", err, out)
		}
	})
}

// An upload cut off by the network is tried again and the file lands once; the cut upload
// leaves no job behind.
func TestRemoteImportRetriesADroppedUpload(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	res := app.Client(t).Do("POST", "/api/auth/sign-up/email", map[string]any{"email": "s@example.com", "password": "password123", "name": "S"})
	token := res.JSON(t)["token"].(string)
	target, _ := url.Parse(app.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var drops atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/imports") && drops.Add(1) == 1 {
			io.CopyN(io.Discard, r.Body, 1024) // part of the upload, then the line goes dead
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	home := t.TempDir()
	dir := filepath.Join(home, "config", "sellertrends")
	os.MkdirAll(dir, 0o700)
	creds, _ := json.Marshal(map[string]any{"servers": map[string]any{front.URL: map[string]string{"token": token}}})
	if err := os.WriteFile(filepath.Join(dir, "credentials.json"), creds, 0o600); err != nil {
		t.Fatal(err)
	}
	sample, _ := filepath.Abs("../trends/testdata/US_Top_Search_Terms_Simple_Week_2026_04_18.csv")
	out, err := run(t, home, "import", "--server", front.URL, sample)
	if err != nil || !strings.Contains(out, "upload interrupted") || !strings.Contains(out, "imported 2026-04-12..2026-04-18") {
		t.Fatalf("import through a dropped connection: %v\n%s", err, out)
	}
	c := app.Client(t)
	var ws []map[string]any
	json.Unmarshal(c.Do("GET", "/api/workspaces", nil, "Authorization", "Bearer "+token).Body, &ws)
	jobs := c.Do("GET", "/api/trends/"+ws[0]["id"].(string)+"/imports", nil, "Authorization", "Bearer "+token).JSON(t)["jobs"].([]any)
	if len(jobs) != 1 || drops.Load() != 2 {
		t.Errorf("%d jobs after %d upload attempts, want 1 job after 2", len(jobs), drops.Load())
	}
}
