package server

import (
	"bytes"
	"compress/gzip"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/web"
)

// spa serves the embedded React app: hashed assets cached forever, other files for a day, and
// page routes as index.html with the metadata and theme class rendered in, so crawlers see the
// page's title and description and the first paint already has the right theme.
type spa struct {
	gzMu   sync.Mutex
	gz     map[string][]byte // compressed hashed assets, made once on first request
	cfg    *config.Config
	files  fs.FS
	index  []byte // index.html as built, nil when the app was not built
	og     []byte // headline image
	font   string // the Latin web font file, preloaded so text renders in it on first paint
	static http.Handler
}

func newSPA(cfg *config.Config) http.Handler {
	files, _ := fs.Sub(web.Dist, "dist")
	return newSPAFrom(cfg, files)
}

// newSPAFrom serves the app built into files (a test passes its own).
func newSPAFrom(cfg *config.Config, files fs.FS) *spa {
	index, _ := fs.ReadFile(files, "index.html")
	font, _ := fs.Glob(files, "assets/inter-latin-wght-normal-*.woff2")
	s := &spa{cfg: cfg, files: files, index: index, og: headlineImage(cfg.Marketplace), static: http.FileServerFS(files)}
	if len(font) > 0 {
		s.font = "/" + font[0]
	}
	return s
}

// pageRoutes are the app's routes (web/src/routes; spa_test.go checks the two agree). Anything
// else, /dashboard/<unknown> included, is answered 404 with the app, which shows 'Not Found'.
var pageRoutes = map[string]bool{
	"/": true, "/sign-in": true,
	"/dashboard": true, "/dashboard/explore": true, "/dashboard/term": true, "/dashboard/product": true,
	"/dashboard/brand": true, "/dashboard/watchlist": true, "/dashboard/imports": true, "/dashboard/account": true, "/dashboard/billing": true,
	"/dashboard/workspace": true,
	"/device":              true, "/admin": true,
}

// isPageRoute also admits the admin area's user pages (/admin/users/<id>) and the invitation
// mail's link (/accept-invitation/<id>).
func isPageRoute(p string) bool {
	for _, prefix := range []string{"/admin/users/", "/accept-invitation/"} {
		if id, ok := strings.CutPrefix(p, prefix); ok {
			return id != "" && !strings.Contains(id, "/")
		}
	}
	return pageRoutes[p]
}

func (s *spa) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean(r.URL.Path)
	switch {
	case p == "/og-image.png":
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.Write(s.og)
	case strings.HasPrefix(p, "/assets/"):
		if !s.exists(p) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		if s.serveGzipped(w, r, p) {
			return
		}
		s.static.ServeHTTP(w, r)
	case isPageRoute(p):
		s.page(w, r, http.StatusOK)
	case p != "/index.html" && s.exists(p):
		w.Header().Set("Cache-Control", "public, max-age=86400")
		s.static.ServeHTTP(w, r)
	default:
		s.page(w, r, http.StatusNotFound)
	}
}

// serveGzipped answers JS, CSS and SVG assets gzip-compressed when the client accepts it. Hashed
// assets never change, so each is compressed once and kept.
func (s *spa) serveGzipped(w http.ResponseWriter, r *http.Request, p string) bool {
	ext := path.Ext(p)
	ctype := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}[ext]
	if ctype == "" || !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		return false
	}
	s.gzMu.Lock()
	body, ok := s.gz[p]
	if !ok {
		raw, err := fs.ReadFile(s.files, strings.TrimPrefix(p, "/"))
		if err != nil {
			s.gzMu.Unlock()
			return false
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		body = b.Bytes()
		if s.gz == nil {
			s.gz = map[string][]byte{}
		}
		s.gz[p] = body
	}
	s.gzMu.Unlock()
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Encoding", "gzip")
	h.Set("Vary", "Accept-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
	return true
}

func (s *spa) exists(p string) bool {
	st, err := fs.Stat(s.files, strings.TrimPrefix(p, "/"))
	return err == nil && !st.IsDir()
}

// page writes index.html with the theme class and the head metadata filled in.
func (s *spa) page(w http.ResponseWriter, r *http.Request, status int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	if s.index == nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("<!doctype html><title>sellertrends</title><p>The web app is not built: run <code>make build</code>.</p>"))
		return
	}
	html := bytes.Replace(s.index, []byte(`<html lang="en">`), []byte(`<html lang="en" dir="ltr" class="`+themeFrom(r)+`">`), 1)
	var head bytes.Buffer
	_ = headTmpl.Execute(&head, s.meta(r))
	html = bytes.Replace(html, []byte("<!--app-head-->"), head.Bytes(), 1)
	w.WriteHeader(status)
	w.Write(html)
}

type pageMeta struct {
	Title, Description, URL, Image, Font string
}

func (s *spa) meta(r *http.Request) pageMeta {
	base := s.cfg.BaseURL.String()
	return pageMeta{
		Title:       "Data trends for " + s.cfg.Marketplace + " sellers",
		Description: "See what people are searching for, understand trends, and make better decisions to grow your business.",
		URL:         base + r.URL.Path,
		Image:       base + "/og-image.png",
		Font:        s.font,
	}
}

var headTmpl = template.Must(template.New("head").Parse(`<title>{{.Title}}</title>
    <meta name="description" content="{{.Description}}">
    <meta property="og:title" content="{{.Title}}">
    <meta property="og:description" content="{{.Description}}">
    <meta property="og:locale" content="en">
    <meta property="og:type" content="website">
    <meta property="og:url" content="{{.URL}}">
    <meta property="og:image" content="{{.Image}}">
    <meta property="og:image:width" content="1200">
    <meta property="og:image:height" content="630">
    <meta name="twitter:card" content="summary_large_image">
    <meta name="twitter:title" content="{{.Title}}">
    <meta name="twitter:description" content="{{.Description}}">
    <meta name="twitter:image" content="{{.Image}}">{{if .Font}}
    <link rel="preload" href="{{.Font}}" as="font" type="font/woff2" crossorigin>{{end}}`))
