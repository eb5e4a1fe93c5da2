// Package mail renders the product's mails (HTML + plain text) and sends them over SMTP, or, in
// development without SMTP_URL, keeps them in an outbox page.
package mail

import (
	"bytes"
	"context"
	"fmt"
	htmltemplate "html/template"
	texttemplate "text/template"
	"time"
)

// Product is the name mails sign with.
const Product = "sellertrends"

// Message is one rendered mail.
type Message struct {
	To       string
	Subject  string
	Text     string
	HTML     string
	Template string // verification, password-reset, email-change, account-deletion, alert-digest
	Link     string // the action link, kept for the dev outbox and tests
	// Unsubscribe, when set, is a signed one-click unsubscribe URL sent as the List-Unsubscribe
	// and List-Unsubscribe-Post headers (RFC 2369, RFC 8058).
	Unsubscribe string
	SentAt      time.Time
}

// Sender delivers messages. Two implementations: SMTP and the development Outbox.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

type content struct {
	Product, Name, Link, Heading, Intro, Button, Outro string
}

var htmlTmpl = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f4f4f5;padding:24px;color:#18181b">
<table role="presentation" style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px">
<tr><td><p style="font-weight:700;font-size:18px;margin:0 0 24px">{{.Product}}</p>
<h1 style="font-size:20px;margin:0 0 16px">{{.Heading}}</h1>
<p>Hello {{.Name}},</p><p>{{.Intro}}</p>
<p style="margin:28px 0"><a href="{{.Link}}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">{{.Button}}</a></p>
<p style="font-size:13px;color:#52525b">Or paste this link into your browser:<br><a href="{{.Link}}">{{.Link}}</a></p>
<p style="font-size:13px;color:#52525b">{{.Outro}}</p></td></tr></table></body></html>`))

var textTmpl = texttemplate.Must(texttemplate.New("text").Parse(`{{.Heading}}

Hello {{.Name}},

{{.Intro}}

{{.Button}}: {{.Link}}

{{.Outro}}

-- {{.Product}}
`))

func render(to, subject, tmpl string, c content) Message {
	c.Product = Product
	if c.Name == "" {
		c.Name = "there"
	}
	var h, t bytes.Buffer
	if err := htmlTmpl.Execute(&h, c); err != nil {
		panic(fmt.Sprintf("mail: html template: %v", err)) // templates are fixed; an error is a bug
	}
	if err := textTmpl.Execute(&t, c); err != nil {
		panic(fmt.Sprintf("mail: text template: %v", err))
	}
	return Message{To: to, Subject: subject, HTML: h.String(), Text: t.String(), Template: tmpl, Link: c.Link}
}

// Verification asks the user to confirm their address.
func Verification(to, name, link string) Message {
	return render(to, "Verify your email for "+Product, "verification", content{Name: name, Link: link,
		Heading: "Confirm your email address", Intro: "Confirm this address to finish setting up your " + Product + " account.",
		Button: "Verify email", Outro: "The link is valid for one hour. If you did not create an account, ignore this mail."})
}

// PasswordReset carries the single-use reset link.
func PasswordReset(to, name, link string) Message {
	return render(to, "Reset your "+Product+" password", "password-reset", content{Name: name, Link: link,
		Heading: "Reset your password", Intro: "Someone asked to reset the password of your " + Product + " account.",
		Button: "Choose a new password", Outro: "The link is valid for one hour and works once. If it was not you, ignore this mail: your password stays as it is."})
}

// EmailChange asks to approve moving the account to a new address.
func EmailChange(to, name, newEmail, link string) Message {
	return render(to, "Approve your new email for "+Product, "email-change", content{Name: name, Link: link,
		Heading: "Change your email address", Intro: "Approve changing your " + Product + " sign-in email to " + newEmail + ".",
		Button: "Approve the change", Outro: "If you did not ask for this, ignore this mail and your address stays the same."})
}

// AccountDeletion confirms deleting the account.
func AccountDeletion(to, name, link string) Message {
	return render(to, "Confirm deleting your "+Product+" account", "account-deletion", content{Name: name, Link: link,
		Heading: "Delete your account", Intro: "Confirm that you want to delete your " + Product + " account and all its data.",
		Button: "Delete my account", Outro: "The link is valid for 24 hours. If you did not ask for this, ignore this mail."})
}

// Invitation invites someone to an organization; the link's page signs them in or up first.
func Invitation(to, inviter, organization, link string) Message {
	return render(to, inviter+" invited you to "+organization+" on "+Product, "organization-invitation", content{Link: link,
		Heading: "Join " + organization, Intro: inviter + " invited you to join the " + organization + " organization on " + Product + ".",
		Button: "Accept the invitation", Outro: "The invitation is valid for 48 hours. If you do not know " + inviter + ", ignore this mail."})
}
