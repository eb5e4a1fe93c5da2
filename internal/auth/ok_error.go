package auth

import (
	"html/template"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

func (s *Service) ok(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

var errorPage = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error | Better Auth</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#0b0b0c;color:#f4f4f5}
main{text-align:center;padding:2rem}code{background:#27272a;padding:.2rem .5rem;border-radius:.3rem}a{color:#a5b4fc}</style></head>
<body><main><h1>Better Auth Error</h1>
<p>We encountered an issue while processing your request. Error code: <code>{{.}}</code></p>
<p><a href="/">Return to Application</a></p></main></body></html>`))

// errorPage is the HTML page Better Auth redirects to on unrecoverable errors.
// The code comes from ?error= and is escaped by html/template.
func (s *Service) errorPage(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("error")
	if code == "" {
		code = "Unknown"
	}
	if len(code) > 200 {
		code = code[:200]
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = errorPage.Execute(w, code)
}
