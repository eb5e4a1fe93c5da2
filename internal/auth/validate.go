package auth

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Field limits: generous for real input, small enough that no body is expensive to handle.
const (
	maxEmailLen = 254
	maxNameLen  = 256
	maxURLLen   = 2048
	maxTokenLen = 2048
)

// Decode reads a JSON body into dst with the shared cap and error shapes.
func Decode(w http.ResponseWriter, r *http.Request, dst any) error {
	return httpx.DecodeJSON(w, r, dst, httpx.DefaultMaxBody)
}

// ReadJSON decodes the body into dst and runs check (which sees the decoded value). On failure
// it answers with the error and returns false, so handlers open with one line.
func ReadJSON(w http.ResponseWriter, r *http.Request, dst any, check func() error) bool {
	if err := Decode(w, r, dst); err != nil {
		writeErr(w, r, err)
		return false
	}
	if check == nil {
		return true
	}
	if err := check(); err != nil {
		writeErr(w, r, err)
		return false
	}
	return true
}

// Fields collects validation failures in zod's message form: "[body.email] Invalid input: ...".
type Fields []string

// requiredMax caps required Fields: emails by RFC 5321, passwords well above any configured
// maximum (the length rule then answers PASSWORD_TOO_LONG), everything else generously.
var requiredMax = map[string]int{"email": maxEmailLen, "newEmail": maxEmailLen, "password": 1024, "newPassword": 1024, "currentPassword": 1024}

func (f *Fields) Required(name string, v *string) {
	if v == nil {
		*f = append(*f, fmt.Sprintf("[body.%s] Invalid input: expected string, received undefined", name))
		return
	}
	limit, ok := requiredMax[name]
	if !ok {
		limit = maxTokenLen
	}
	f.MaxLen(name, v, limit)
}

func (f *Fields) MaxLen(name string, v *string, n int) {
	if v != nil && utf8.RuneCountInString(*v) > n {
		*f = append(*f, fmt.Sprintf("[body.%s] Too big: expected string to have <=%d characters", name, n))
	}
}

// Required is one required string field's check, for bodies with a single field.
func Required(name string, v *string) error {
	var f Fields
	f.Required(name, v)
	return f.Err()
}

// RequiredQuery is a required query parameter's check, worded as zod words it
// ("[query.token] ..."). An empty value is given, as in Better Auth.
func RequiredQuery(q url.Values, name string) error {
	if _, ok := q[name]; !ok {
		return httpx.BadRequest(fmt.Sprintf("[query.%s] Invalid input: expected string, received undefined", name))
	}
	return nil
}

func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	return httpx.BadRequest(strings.Join(f, "; "))
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// emailPattern follows zod's email check: a dotted local part and a domain with a TLD.
var emailPattern = regexp.MustCompile(`^[A-Za-z0-9_'+\-\.]*[A-Za-z0-9_+\-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`)

func validEmail(s string) bool {
	return len(s) <= maxEmailLen && !strings.HasPrefix(s, ".") && !strings.Contains(s, "..") && emailPattern.MatchString(s)
}

// checkPassword applies AUTH_PASSWORD_MIN_LENGTH / MAX_LENGTH (counted in characters).
func (s *Service) checkPassword(pw string) error {
	n := utf8.RuneCountInString(pw)
	if n < s.cfg.AuthPasswordMinLength {
		return ErrPasswordTooShort
	}
	if n > s.cfg.AuthPasswordMaxLength {
		return ErrPasswordTooLong
	}
	return nil
}

// WriteStatus writes {"status": true}, the answer of Better Auth's endpoints that only succeed.
func WriteStatus(w http.ResponseWriter) { httpx.WriteJSON(w, http.StatusOK, statusTrue) }

var statusTrue = map[string]bool{"status": true}

// WriteError answers err: an *httpx.Error (the catalogue) as is, anything else as a logged 500.
func WriteError(w http.ResponseWriter, r *http.Request, err error) { httpx.WriteError(w, r, err) }
