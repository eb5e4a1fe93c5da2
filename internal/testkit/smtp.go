package testkit

import (
	"bytes"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one message the test SMTP server received.
type Mail struct {
	From string
	To   []string
	Data string // raw message as sent on the wire
}

// Link returns the first URL in the mail's text part that contains substr.
func (m Mail) Link(t testing.TB, substr string) string {
	t.Helper()
	body := unQP(m.Data) // undo quoted-printable soft breaks and escapes
	for _, u := range regexp.MustCompile(`https?://[^\s"<>]+`).FindAllString(body, -1) {
		if strings.Contains(u, substr) {
			return u
		}
	}
	t.Fatalf("no link containing %q in mail:\n%s", substr, m.Data)
	return ""
}

// Inbox is a real SMTP server on 127.0.0.1 that keeps what it receives.
type Inbox struct {
	URL string // smtp://127.0.0.1:port
	mu  sync.Mutex
	got []Mail
	new chan struct{}
}

// SMTP starts an in-process SMTP server for the test and stops it at cleanup.
func SMTP(t testing.TB) *Inbox {
	t.Helper()
	in := &Inbox{new: make(chan struct{}, 100)}
	s := smtp.NewServer(&backend{in: in})
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	in.URL = "smtp://" + ln.Addr().String()
	return in
}

// Wait blocks until a mail to `to` arrives (or fails the test after 10 s) and returns it.
func (in *Inbox) Wait(t *testing.T, to string) Mail {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if m, ok := in.find(to); ok {
			return m
		}
		select {
		case <-in.new:
		case <-deadline:
			t.Fatalf("no mail to %s within 10s", to)
		}
	}
}

// WaitLink blocks until a mail to `to` holding a link that contains substr arrives, takes it out
// of the inbox and returns the link. Mails are sent in the background, so their order is not
// guaranteed: tests name the mail they want rather than count them.
func (in *Inbox) WaitLink(t testing.TB, to, substr string) string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if m, ok := in.take(to, func(m Mail) bool { return strings.Contains(unQP(m.Data), substr) }); ok {
			return m.Link(t, substr)
		}
		select {
		case <-in.new:
		case <-deadline:
			t.Fatalf("no mail to %s with a link containing %q within 10s", to, substr)
		}
	}
}

// NewestLink waits for a mail to `to` holding a link that contains substr, takes every such
// mail out of the inbox and returns the link of the last one received.
func (in *Inbox) NewestLink(t testing.TB, to, substr string) string {
	t.Helper()
	link := in.WaitLink(t, to, substr)
	match := func(m Mail) bool { return strings.Contains(unQP(m.Data), substr) }
	for {
		m, ok := in.take(to, match)
		if !ok {
			return link
		}
		link = m.Link(t, substr)
	}
}

func unQP(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "=\r\n", ""), "=3D", "=")
}

// Count returns how many mails went to `to`.
func (in *Inbox) Count(to string) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	n := 0
	for _, m := range in.got {
		for _, r := range m.To {
			if strings.EqualFold(r, to) {
				n++
			}
		}
	}
	return n
}

// find takes the oldest unread mail to `to` out of the inbox.
func (in *Inbox) find(to string) (Mail, bool) {
	return in.take(to, func(Mail) bool { return true })
}

// take removes and returns the oldest mail to `to` that matches.
func (in *Inbox) take(to string, match func(Mail) bool) (Mail, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for i, m := range in.got {
		for _, r := range m.To {
			if strings.EqualFold(r, to) && match(m) {
				in.got = append(in.got[:i:i], in.got[i+1:]...)
				return m, true
			}
		}
	}
	return Mail{}, false
}

type backend struct{ in *Inbox }

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{in: b.in}, nil }

type session struct {
	in   *Inbox
	from string
	to   []string
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error   { s.to = append(s.to, to); return nil }
func (s *session) Data(r io.Reader) error {
	var b bytes.Buffer
	if _, err := io.Copy(&b, r); err != nil {
		return err
	}
	s.in.mu.Lock()
	s.in.got = append(s.in.got, Mail{From: s.from, To: s.to, Data: b.String()})
	s.in.mu.Unlock()
	s.in.new <- struct{}{}
	return nil
}
func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }
