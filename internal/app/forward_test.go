package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/app"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// node is one server of a deployment: its own store connection, app and listener.
type node struct {
	t     *testing.T
	addr  string
	vars  map[string]string
	st    *store.Store
	app   *app.App
	srv   *http.Server
	base  string
	ready bool
}

func (n *node) start() {
	n.t.Helper()
	ln, err := net.Listen("tcp", n.addr) // the same address on a restart
	if err != nil {
		n.t.Fatal(err)
	}
	if n.st, err = store.Open(context.Background(), n.vars["DATABASE_URL"], ""); err != nil {
		n.t.Fatal(err)
	}
	if n.app, err = app.Build(context.Background(), load(n.t, n.vars), n.st, app.Options{Secret: testkit.Secret, RateLimitStorage: "memory"}); err != nil {
		n.t.Fatal(err)
	}
	n.srv = &http.Server{Handler: n.app.Handler}
	go n.srv.Serve(ln)
	n.ready = true
}

func (n *node) stop() {
	if !n.ready {
		return
	}
	n.srv.Close()
	n.app.Close()
	n.st.Close()
	n.ready = false
}

// deployment starts a trends owner and a server forwarding to it, on one PostgreSQL.
func deployment(t *testing.T) (owner, forwarder *node) {
	dbURL, _ := testkit.PostgresSchema(t)
	addrs := make([]string, 2)
	for i := range addrs {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addrs[i] = ln.Addr().String()
		ln.Close()
	}
	common := func(addr string) map[string]string {
		return map[string]string{"DATABASE_URL": dbURL, "BASE_URL": "http://" + addr,
			"TRUSTED_ORIGINS":     "http://" + addrs[0] + ",http://" + addrs[1],
			"DUCKDB_MEMORY_LIMIT": "256MB", "DUCKDB_IMPORT_MEMORY_LIMIT": "256MB"}
	}
	owner = &node{t: t, addr: addrs[0], base: "http://" + addrs[0], vars: common(addrs[0])}
	owner.vars["DATA_DIR"] = t.TempDir()
	forwarder = &node{t: t, addr: addrs[1], base: "http://" + addrs[1], vars: common(addrs[1])}
	forwarder.vars["DATA_DIR"] = t.TempDir()
	forwarder.vars["TRENDS_OWNER_URL"] = owner.base
	owner.start() // first: its migrations and the forwarder's run on one database
	forwarder.start()
	t.Cleanup(forwarder.stop)
	t.Cleanup(owner.stop)
	return owner, forwarder
}

type browser struct {
	t    *testing.T
	http *http.Client
}

func (b browser) do(n *node, method, path, contentType string, body io.Reader) (int, []byte) {
	b.t.Helper()
	req, _ := http.NewRequest(method, n.base+path, body)
	req.Header.Set("Origin", n.base)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := b.http.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

func (b browser) json(n *node, method, path string, body any) (int, map[string]any) {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	status, raw := b.do(n, method, path, "application/json", rd)
	var out map[string]any
	json.Unmarshal(raw, &out)
	return status, out
}

// An upload through either server is seen through both, and the forwarding server stays up
// (sign-in works, trends answer 503 with a clear message) while the trends owner restarts.
func TestUploadThroughEitherServerIsSeenThroughBoth(t *testing.T) {
	owner, fwd := deployment(t)
	jar, _ := cookiejar.New(nil) // one browser: its cookies are for 127.0.0.1 whatever the port
	b := browser{t: t, http: &http.Client{Jar: jar}}
	if status, body := b.json(fwd, "POST", "/api/auth/sign-up/email", map[string]any{"email": "seller@example.com", "password": "long-enough-password", "name": "Seller"}); status != 200 {
		t.Fatalf("sign-up through the forwarder: %d %v", status, body)
	}
	status, raw := b.do(fwd, "GET", "/api/workspaces", "", nil)
	var workspaces []map[string]any
	if status != 200 || json.Unmarshal(raw, &workspaces) != nil || len(workspaces) == 0 {
		t.Fatalf("workspaces through the forwarder: %d %s", status, raw)
	}
	ws := workspaces[0]["id"].(string)

	upload(b, fwd, ws, "US_Top_Search_Terms_Simple_Week_2026_04_11.csv")
	upload(b, owner, ws, "US_Top_Search_Terms_Simple_Week_2026_04_18.csv")
	viaOwner := datasets(b, owner, ws)
	viaFwd := datasets(b, fwd, ws)
	if viaOwner != viaFwd || !strings.Contains(viaOwner, `"periods":2`) {
		t.Fatalf("the two servers see different datasets:\n owner:     %s\n forwarder: %s", viaOwner, viaFwd)
	}

	owner.stop()
	status, body := b.json(fwd, "GET", "/api/trends/"+ws+"/datasets", nil)
	if status != http.StatusServiceUnavailable || body["code"] != "TRENDS_UNAVAILABLE" || !strings.Contains(body["message"].(string), "try again") {
		t.Fatalf("with the owner down the forwarder answers %d %v, want 503 TRENDS_UNAVAILABLE", status, body)
	}
	status, body = b.json(fwd, "GET", "/api/health", nil)
	trends, _ := body["trends"].(map[string]any)
	if status != 200 || body["database"] != "ok" || trends["reachable"] != false || trends["mode"] != "forwarding" {
		t.Fatalf("forwarder health with the owner down: %d %v", status, body)
	}
	if status, body = b.json(fwd, "GET", "/api/auth/get-session", nil); status != 200 || body["user"] == nil {
		t.Fatalf("the forwarder's own sign-in state while the owner is down: %d %v", status, body)
	}

	owner.start()
	if again := datasets(b, fwd, ws); again != viaOwner {
		t.Fatalf("after the owner's restart the forwarder sees %s, want %s", again, viaOwner)
	}
	if status, body = b.json(fwd, "GET", "/api/health", nil); body["trends"].(map[string]any)["reachable"] != true {
		t.Fatalf("forwarder health after the restart: %d %v", status, body)
	}
	if status, body = b.json(owner, "GET", "/api/health", nil); status != 200 || body["trends"].(map[string]any)["mode"] != "local" {
		t.Fatalf("owner health: %d %v", status, body)
	}

	// Deleting the account through the forwarder deletes its datasets in the owner's store.
	if status, body = b.json(fwd, "POST", "/api/auth/delete-user", map[string]any{"password": "long-enough-password"}); status != 200 {
		t.Fatalf("delete-user through the forwarder: %d %v", status, body)
	}
	if left, err := owner.app.Warehouse.Datasets(context.Background(), ws); err != nil || len(left) != 0 {
		t.Fatalf("the owner still holds the deleted account's datasets: %v %v", left, err)
	}
}

// The owner takes deletions only with a valid, recent signature.
func TestOwnerRefusesUnsignedDeletions(t *testing.T) {
	owner, _ := deployment(t)
	b := browser{t: t, http: &http.Client{}}
	for name, header := range map[string]string{"unsigned": "", "forged": strings.Repeat("ab", 32)} {
		req, _ := http.NewRequest("POST", owner.base+"/api/internal/delete-user-data", strings.NewReader(`{"userId":"u1","timestamp":1}`))
		if header != "" {
			req.Header.Set("X-Sellertrends-Signature", header)
		}
		res, err := b.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("%s deletion: %d, want 403", name, res.StatusCode)
		}
	}
}

// upload posts one sample week through n and waits for its job through n.
func upload(b browser, n *node, ws, file string) {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("files", file)
	data, err := os.ReadFile(filepath.Join("..", "trends", "testdata", file))
	if err != nil {
		b.t.Fatal(err)
	}
	part.Write(data)
	mw.Close()
	status, raw := b.do(n, "POST", "/api/trends/"+ws+"/imports", mw.FormDataContentType(), &body)
	var out struct{ Jobs []struct{ ID string } }
	if status != http.StatusAccepted || json.Unmarshal(raw, &out) != nil || len(out.Jobs) != 1 {
		b.t.Fatalf("upload %s through %s: %d %s", file, n.base, status, raw)
	}
	status, job := b.json(n, "GET", "/api/trends/"+ws+"/imports/"+out.Jobs[0].ID+"?wait=true", nil)
	if status != 200 || job["state"] != "done" {
		b.t.Fatalf("job of %s through %s: %d %v", file, n.base, status, job)
	}
}

func datasets(b browser, n *node, ws string) string {
	b.t.Helper()
	status, raw := b.do(n, "GET", "/api/trends/"+ws+"/datasets", "", nil)
	if status != 200 {
		b.t.Fatalf("datasets through %s: %d %s", n.base, status, raw)
	}
	return string(raw)
}
