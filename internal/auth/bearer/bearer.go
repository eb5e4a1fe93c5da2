// Package bearer is Better Auth's bearer plugin: a session token in an `Authorization: Bearer`
// header is accepted wherever the session cookie is, and every answer that sets the session
// cookie also carries the token in a `set-auth-token` header, so clients without cookies (the
// command line, a device) can keep it.
package bearer

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
)

// Plugin is the bearer plugin. With RequireSignature, only signed tokens ("token.signature",
// as set-auth-token gives them) are accepted; otherwise a bare session token is too.
type Plugin struct {
	RequireSignature bool
}

func (Plugin) ID() string { return "bearer" }

// Register adds the Authorization header as a token source and the set-auth-token answer.
func (p Plugin) Register(s *auth.Service) error {
	s.AddTokenSource(func(r *http.Request) string { return p.token(s, r) })
	s.Wrap(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(&exposer{ResponseWriter: w, cookie: s.SessionCookieName()}, r)
		})
	})
	return nil
}

// token reads "Authorization: Bearer <token>" and returns the session token it names, or "".
func (p Plugin) token(s *auth.Service, r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return ""
	}
	tok := strings.TrimSpace(h[7:])
	if tok == "" || len(tok) > 512 {
		return ""
	}
	if !strings.Contains(tok, ".") {
		if p.RequireSignature {
			return ""
		}
		return tok
	}
	if strings.Contains(tok, "%") {
		if d, err := url.QueryUnescape(tok); err == nil {
			tok = d
		}
	}
	v, ok := s.VerifySigned(tok)
	if !ok {
		return ""
	}
	return v
}

// exposer copies the session cookie's value into set-auth-token before the header is written.
type exposer struct {
	http.ResponseWriter
	cookie string
	done   bool
}

func (e *exposer) WriteHeader(status int) {
	e.expose()
	e.ResponseWriter.WriteHeader(status)
}

func (e *exposer) Write(b []byte) (int, error) {
	e.expose()
	return e.ResponseWriter.Write(b)
}

func (e *exposer) Unwrap() http.ResponseWriter { return e.ResponseWriter }

func (e *exposer) expose() {
	if e.done {
		return
	}
	e.done = true
	h := e.ResponseWriter.Header()
	for _, line := range h.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err != nil || c.Name != e.cookie || c.Value == "" || c.MaxAge < 0 {
			continue
		}
		v, err := url.QueryUnescape(c.Value)
		if err != nil {
			v = c.Value
		}
		h.Set("set-auth-token", v)
		exposed := h.Get("Access-Control-Expose-Headers")
		if !strings.Contains(strings.ToLower(exposed), "set-auth-token") {
			if exposed != "" {
				exposed += ", "
			}
			h.Set("Access-Control-Expose-Headers", exposed+"set-auth-token")
		}
	}
}
