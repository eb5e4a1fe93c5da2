package authcompare

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Modules is web/node_modules of this checkout, where better-auth and pg are installed.
func Modules(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	modules := filepath.Join(filepath.Dir(file), "../../../web/node_modules")
	for _, pkg := range []string{"better-auth", "pg"} {
		if _, err := os.Stat(filepath.Join(modules, pkg)); err != nil {
			t.Fatalf("%s is not installed in web/node_modules (run `cd web && npm ci`): %v", pkg, err)
		}
	}
	return modules
}

// StartBetterAuth runs script (a Better Auth server: `node script port postgresURL schema`
// prints "listening" when ready) on a fresh PostgreSQL schema, with env added to its
// environment. A script that keeps the mails it would send answers
// GET /__mail?to=&contains= with {"url": ...}, which Link reads.
func StartBetterAuth(t testing.TB, script string, env ...string) *Target {
	t.Helper()
	dsn, schema := testkit.PostgresSchema(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	base := Node(t, script, []string{testkit.PostgresURL(), schema}, env...)
	return &Target{Name: "better-auth", Base: base, DB: db, Link: func(t testing.TB, to, substr string) string {
		t.Helper()
		res, err := http.Get(base + "/__mail?to=" + url.QueryEscape(to) + "&contains=" + url.QueryEscape(substr))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m struct{ URL string }
		if err := json.NewDecoder(res.Body).Decode(&m); err != nil || m.URL == "" {
			t.Fatalf("no link with %q mailed to %s by Better Auth (%d)", substr, to, res.StatusCode)
		}
		return m.URL
	}}
}

// Node copies script next to web/node_modules (so its imports resolve there), runs
// `node script <port> args...` with env added to its environment, waits until it prints
// "listening" and answers its base URL. The process ends with the test.
func Node(t testing.TB, script string, args []string, env ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	copied := Script(t, script)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", append([]string{copied, strconv.Itoa(port)}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "listening" {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("node %s ended: %s", filepath.Base(script), stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("node %s did not start: %s", filepath.Base(script), stderr.String())
	}
	return fmt.Sprintf("http://127.0.0.1:%d", port)
}

// Ours is the Go server of a testkit app as a target.
func Ours(app *testkit.App) *Target {
	return &Target{Name: "sellertrends", Base: app.URL, DB: app.Store.DB(), Link: app.Inbox.NewestLink}
}

// Script copies a node script into web/ for the test, so its imports resolve in
// web/node_modules, and returns the copy's path.
func Script(t testing.TB, from string) string {
	t.Helper()
	dir := filepath.Dir(Modules(t))
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, ".compare-*.mjs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return f.Name()
}
