package server

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sellertrends/sellertrends/internal/config"
)

func testSPA(t *testing.T) *spa {
	t.Helper()
	cfg, err := config.Load(func(k string) (string, bool) {
		v, ok := map[string]string{"BASE_URL": "http://127.0.0.1:3000", "DATA_DIR": t.TempDir()}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	return newSPAFrom(cfg, fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><html lang="en"><head><!--app-head--></head><body><div id="app"></div></body></html>`)}})
}

// Known pages answer 200; an unknown page, under /dashboard/ too, answers 404 with the app.
func TestPageStatus(t *testing.T) {
	s := testSPA(t)
	for path, want := range map[string]int{
		"/": 200, "/sign-in": 200, "/dashboard": 200, "/dashboard/": 200, "/dashboard/explore": 200, "/dashboard/term?t=yoga": 200,
		"/dashboard/product": 200, "/dashboard/brand": 200, "/dashboard/watchlist": 200, "/dashboard/imports": 200, "/dashboard/account": 200,
		"/dashboard/nope": 404, "/dashboard/explore/extra": 404, "/dashboards": 404, "/nope": 404,
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want || !strings.Contains(rec.Body.String(), `<div id="app">`) {
			t.Errorf("GET %s: %d, want %d with the app", path, rec.Code, want)
		}
	}
}

// The server's list of pages is the web app's route files, so a new screen cannot answer 404.
func TestPageRoutesMatchTheWebRoutes(t *testing.T) {
	root := filepath.Join("..", "..", "web", "src", "routes")
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".tsx") {
			return err
		}
		rel, _ := filepath.Rel(root, strings.TrimSuffix(p, ".tsx"))
		var parts []string
		for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
			if !strings.HasPrefix(seg, "_") && seg != "index" { // pathless layouts, __root, index
				parts = append(parts, seg)
			}
		}
		found["/"+strings.Join(parts, "/")] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range found {
		if !pageRoutes[p] {
			t.Errorf("web route %s is missing from pageRoutes", p)
		}
	}
	for p := range pageRoutes {
		if !found[p] {
			t.Errorf("pageRoutes has %s, which no web route file serves", p)
		}
	}
}
