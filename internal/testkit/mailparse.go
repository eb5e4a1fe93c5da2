package testkit

import (
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"
)

// ParsedMail is a received mail read as a mail client would: decoded headers and parts.
type ParsedMail struct {
	Header  mail.Header
	Subject string // decoded (RFC 2047)
	Text    string // the text/plain part, transfer encoding undone, lines ending in \n
	HTML    string // the text/html part, likewise
}

// Parse reads the raw message (a multipart/alternative of text and HTML, or a single part).
func (m Mail) Parse(t testing.TB) ParsedMail {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		t.Fatalf("parse mail: %v\n%s", err, m.Data)
	}
	out := ParsedMail{Header: msg.Header}
	dec := new(mime.WordDecoder)
	if out.Subject, err = dec.DecodeHeader(msg.Header.Get("Subject")); err != nil {
		t.Fatalf("subject: %v", err)
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("content type: %v", err)
	}
	if !strings.HasPrefix(mediaType, "multipart/") {
		body, _ := io.ReadAll(msg.Body)
		out.Text = lf(body)
		return out
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart() // undoes quoted-printable
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("mail part: %v", err)
		}
		body, err := io.ReadAll(p)
		if err != nil {
			t.Fatalf("mail part: %v", err)
		}
		switch ct := p.Header.Get("Content-Type"); {
		case strings.HasPrefix(ct, "text/plain"):
			out.Text = lf(body)
		case strings.HasPrefix(ct, "text/html"):
			out.HTML = lf(body)
		}
	}
}

// lf turns the wire's CRLF line ends into \n.
func lf(b []byte) string { return strings.ReplaceAll(string(b), "\r\n", "\n") }
