package device

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

const (
	maxBody  = 64 << 10
	maxParam = 2048 // client ids, scopes, codes: generous, but bounded
)

// params are a request's string fields, from a JSON body or an RFC 6749 form (the device
// endpoints accept both): nil when absent.
type params map[string]*string

// errInvalidJSON is the router's answer to a body that is not JSON.
var errInvalidJSON = httpx.NewError(http.StatusBadRequest, "BAD_REQUEST", "Invalid JSON in request body")

// errInvalidBody carries a zod-style message ("[body.client_id] ...") the endpoint words its way.
type errInvalidBody struct{ msg string }

func (e errInvalidBody) Error() string { return e.msg }

// readParams reads names from r's body. In a form a name given twice is refused and an empty
// value counts as absent, as Better Auth does.
func readParams(w http.ResponseWriter, r *http.Request, names ...string) (params, error) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return nil, errInvalidBody{"Request body is too large"}
	}
	out := params{}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/x-www-form-urlencoded" {
		form, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, errInvalidBody{"Invalid form body"}
		}
		for _, n := range names {
			var vals []string
			for _, v := range form[n] {
				if v != "" {
					vals = append(vals, v)
				}
			}
			if len(vals) > 1 {
				return nil, errRepeated{n}
			}
			if _, given := form[n]; given {
				v := ""
				if len(vals) == 1 {
					v = vals[0]
				}
				out[n] = &v
			}
		}
		return out, out.check(names)
	}
	var body map[string]json.RawMessage
	if s := strings.TrimSpace(string(raw)); s != "" {
		if !json.Valid(raw) {
			return nil, errInvalidJSON // better-call's answer, before the endpoint's own wording
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			return nil, errInvalidBody{"[body] Invalid input: expected object, received " + jsType(json.RawMessage(s))}
		}
	}
	var f []string
	for _, n := range names {
		v, ok := body[n]
		if !ok || string(v) == "null" {
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			f = append(f, fmt.Sprintf("[body.%s] Invalid input: expected string, received %s", n, jsType(v)))
			continue
		}
		out[n] = &s
	}
	if len(f) > 0 {
		return nil, errInvalidBody{strings.Join(f, "; ")}
	}
	return out, out.check(names)
}

func (ps params) check(names []string) error {
	for _, n := range names {
		if v := ps[n]; v != nil && len(*v) > maxParam {
			return errInvalidBody{fmt.Sprintf("[body.%s] Too big: expected string to have <=%d characters", n, maxParam)}
		}
	}
	return nil
}

// required returns the message of the first required name that is absent.
func (ps params) required(names ...string) error {
	var f []string
	for _, n := range names {
		if ps[n] == nil {
			f = append(f, fmt.Sprintf("[body.%s] Invalid input: expected string, received undefined", n))
		}
	}
	if len(f) > 0 {
		return errInvalidBody{strings.Join(f, "; ")}
	}
	return nil
}

func (ps params) get(n string) string {
	if v := ps[n]; v != nil {
		return *v
	}
	return ""
}

type errRepeated struct{ name string }

func (e errRepeated) Error() string { return e.name + " must not be repeated" }

func jsType(v json.RawMessage) string {
	switch {
	case len(v) == 0:
		return "undefined"
	case v[0] == '{':
		return "object"
	case v[0] == '[':
		return "array"
	case v[0] == 't' || v[0] == 'f':
		return "boolean"
	case v[0] == '"':
		return "string"
	case v[0] == 'n':
		return "null"
	default:
		return "number"
	}
}

// asInvalidRequest words a body error as /device/code does: {"error": "invalid_request"}.
func asInvalidRequest(err error) error {
	var e errInvalidBody
	var rep errRepeated
	switch {
	case errors.As(err, &e):
		return oerr(http.StatusBadRequest, "invalid_request", e.msg)
	case errors.As(err, &rep):
		return oerr(http.StatusBadRequest, "invalid_request", rep.Error())
	}
	return err
}
