package trends

import (
	"errors"
	"html/template"
	"log/slog"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/store"
)

// unsubscribePage is the answer of the signed unsubscribe link: a confirmation with one button
// on GET (mail scanners open links, so a GET changes nothing), the outcome after the POST.
var unsubscribePage = template.Must(template.New("unsubscribe").Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{{.Title}} | sellertrends</title>
<style>body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#18181b}
button{background:#4f46e5;color:#fff;border:0;border-radius:8px;padding:.75rem 1.25rem;font-weight:600;font-size:1rem;cursor:pointer}a{color:#4f46e5}</style></head>
<body><p><strong>sellertrends</strong></p><h1>{{.Title}}</h1><p>{{.Text}}</p>
{{if .Confirm}}<form method="post" action="{{.Action}}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>{{end}}
<p><a href="/dashboard/watchlist">Alert settings</a></p></body></html>`))

type unsubscribeView struct {
	Title, Text, Action string
	Confirm             bool
}

// unsubscribe serves the link in every digest: GET asks to confirm, POST (the button, or a mail
// client's RFC 8058 one-click POST) turns the user's digests off. The link's HMAC signature is
// the only credential; no session is needed.
func (s *Service) unsubscribe(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer") // the URL carries the token
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	userID, token := r.URL.Query().Get("u"), r.URL.Query().Get("t")
	if s.alerts == nil || !s.alerts.ValidUnsubscribe(userID, token) {
		writeUnsubscribe(w, http.StatusBadRequest, unsubscribeView{Title: "This link is not valid",
			Text: "The unsubscribe link is incomplete or was changed. Use the link of a recent alert email, or change your alerts in the settings."})
		return
	}
	if r.Method == http.MethodGet {
		u, err := s.store.UserByID(r.Context(), userID)
		if errors.Is(err, store.ErrNotFound) {
			writeUnsubscribe(w, http.StatusOK, unsubscribeView{Title: "Unsubscribed", Text: "This account no longer exists, so it gets no alert emails."})
			return
		} else if err != nil {
			writeUnsubscribeError(w, r, err)
			return
		}
		writeUnsubscribe(w, http.StatusOK, unsubscribeView{Title: "Stop alert emails?", Confirm: true, Action: r.URL.RequestURI(),
			Text: "Stop the watchlist alert emails to " + u.Email + ". You can turn them on again in the alert settings."})
		return
	}
	// A deleted user (ErrNotFound) has nothing left to stop.
	if err := s.alerts.Unsubscribe(r.Context(), userID, token); err != nil && !errors.Is(err, store.ErrNotFound) {
		writeUnsubscribeError(w, r, err)
		return
	}
	writeUnsubscribe(w, http.StatusOK, unsubscribeView{Title: "Unsubscribed", Text: "You will get no more watchlist alert emails. You can turn them on again in the alert settings."})
}

func writeUnsubscribe(w http.ResponseWriter, status int, v unsubscribeView) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = unsubscribePage.Execute(w, v)
}

func writeUnsubscribeError(w http.ResponseWriter, r *http.Request, err error) {
	// The path only: the query holds the token.
	slog.Error("unsubscribe failed", slog.Group("request", "method", r.Method, "path", r.URL.Path), "error", err)
	writeUnsubscribe(w, http.StatusInternalServerError, unsubscribeView{Title: "Something went wrong", Text: "Your alerts could not be changed just now. Please try the link again in a minute."})
}
