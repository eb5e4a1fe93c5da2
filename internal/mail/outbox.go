package mail

import (
	"context"
	"encoding/json"
	"html/template"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// Outbox keeps mails in memory for development without SMTP: a page at /dev/outbox lists them
// and /dev/outbox.json serves them to scripts. It keeps the newest 200.
type Outbox struct {
	mu   sync.Mutex
	msgs []Message
}

// Send records m and logs that it arrived (without its link: links carry tokens).
func (o *Outbox) Send(_ context.Context, m Message) error {
	m.SentAt = time.Now().UTC()
	o.mu.Lock()
	o.msgs = append(o.msgs, m)
	if len(o.msgs) > 200 {
		o.msgs = o.msgs[len(o.msgs)-200:]
	}
	o.mu.Unlock()
	slog.Info("mail kept in the dev outbox (no SMTP_URL): open /dev/outbox", "to", m.To, "subject", m.Subject)
	return nil
}

// Messages returns the kept mails, newest first.
func (o *Outbox) Messages() []Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]Message, len(o.msgs))
	for i, m := range o.msgs {
		out[len(o.msgs)-1-i] = m
	}
	return out
}

var outboxPage = template.Must(template.New("outbox").Parse(`<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8">
<title>Dev outbox | sellertrends</title><style>body{font-family:system-ui,sans-serif;max-width:900px;margin:2rem auto;padding:0 1rem}
details{border:1px solid #d4d4d8;border-radius:8px;margin:0 0 1rem;padding:.75rem 1rem}summary{cursor:pointer}iframe{width:100%;height:420px;border:0}</style></head>
<body><h1>Development outbox</h1><p>Mails the server would have sent. Set <code>SMTP_URL</code> to send them for real.</p>
{{range .}}<details open><summary><strong>{{.Subject}}</strong> to {{.To}} at {{.SentAt.Format "15:04:05"}}</summary>
<p><a href="{{.Link}}">{{.Link}}</a></p><iframe sandbox srcdoc="{{.HTML}}" title="{{.Subject}}"></iframe></details>
{{else}}<p>No mail yet.</p>{{end}}</body></html>`))

// ServeHTTP serves the outbox page, or JSON at /dev/outbox.json.
func (o *Outbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if r.URL.Path == "/dev/outbox.json" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(o.Messages())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = outboxPage.Execute(w, o.Messages())
}
