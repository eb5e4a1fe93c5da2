package mail

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	texttemplate "text/template"
)

// Digest is an alert digest's content, already in a seller's words: the alerts package decides
// what moved, this file only lays it out.
type Digest struct {
	Name        string
	Heading     string
	Intro       string
	Sections    []DigestSection // one per dataset
	Why         string          // why the reader gets this mail
	Settings    string          // absolute link to the alert settings
	Unsubscribe string          // absolute, signed one-click unsubscribe link
}

// DigestSection is what moved in one dataset.
type DigestSection struct {
	Title    string // workspace and marketplace
	Subtitle string // the periods compared
	Groups   []DigestGroup
}

// DigestGroup is one kind of move: rank moves, top-3 changes, new breakouts.
type DigestGroup struct {
	Title string
	Items []DigestItem
	More  int // moves left out to keep the mail short
}

// DigestItem is one move: Label links to Link (a term page), Text says what happened.
type DigestItem struct {
	Label, Link, Text string
}

var digestHTML = htmltemplate.Must(htmltemplate.New("digest").Parse(`<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f4f4f5;padding:24px;color:#18181b">
<table role="presentation" style="max-width:600px;margin:auto;background:#fff;border-radius:12px;padding:32px">
<tr><td><p style="font-weight:700;font-size:18px;margin:0 0 24px">{{.Product}}</p>
<h1 style="font-size:20px;margin:0 0 16px">{{.Heading}}</h1>
<p>Hello {{.Name}},</p><p>{{.Intro}}</p>
{{range .Sections}}<h2 style="font-size:17px;margin:28px 0 4px">{{.Title}}</h2>
<p style="font-size:13px;color:#52525b;margin:0 0 12px">{{.Subtitle}}</p>
{{range .Groups}}<h3 style="font-size:15px;margin:16px 0 6px">{{.Title}}</h3>
<ul style="padding-left:20px;margin:0">{{range .Items}}
<li style="margin:4px 0"><a href="{{.Link}}" style="color:#4f46e5">{{.Label}}</a>: {{.Text}}</li>{{end}}
</ul>{{if .More}}<p style="font-size:13px;color:#52525b">and {{.More}} more on the watchlist page.</p>{{end}}
{{end}}{{end}}
<p style="font-size:13px;color:#52525b;margin-top:28px">{{.Why}} <a href="{{.Settings}}">Change alert settings</a> · <a href="{{.Unsubscribe}}">Unsubscribe</a></p>
</td></tr></table></body></html>`))

var digestText = texttemplate.Must(texttemplate.New("digest").Parse(`{{.Heading}}

Hello {{.Name}},

{{.Intro}}
{{range .Sections}}
== {{.Title}} ==
{{.Subtitle}}
{{range .Groups}}
{{.Title}}
{{range .Items}}- {{.Label}}: {{.Text}}
  {{.Link}}
{{end}}{{if .More}}and {{.More}} more on the watchlist page.
{{end}}{{end}}{{end}}
{{.Why}}
Change alert settings: {{.Settings}}
Unsubscribe: {{.Unsubscribe}}

-- {{.Product}}
`))

// AlertDigest renders a digest mail; it carries the List-Unsubscribe headers.
func AlertDigest(to, subject string, d Digest) Message {
	if d.Name == "" {
		d.Name = "there"
	}
	data := struct {
		Digest
		Product string
	}{d, Product}
	var h, t bytes.Buffer
	if err := digestHTML.Execute(&h, data); err != nil {
		panic(fmt.Sprintf("mail: digest html template: %v", err)) // templates are fixed; an error is a bug
	}
	if err := digestText.Execute(&t, data); err != nil {
		panic(fmt.Sprintf("mail: digest text template: %v", err))
	}
	return Message{To: to, Subject: subject, HTML: h.String(), Text: t.String(), Template: "alert-digest",
		Link: d.Settings, Unsubscribe: d.Unsubscribe}
}
