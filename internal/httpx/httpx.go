// Package httpx holds the small HTTP helpers every handler shares: capped JSON decoding with
// typed 400s, JSON writers and the one error writer that logs a 500 exactly once.
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
)

// DefaultMaxBody caps JSON request bodies; auth bodies are a few hundred bytes.
const DefaultMaxBody = 64 << 10

// Error is an error with an HTTP status and a machine-readable code, written as
// {"code": ..., "message": ...} — the body shape Better Auth's client expects.
type Error struct {
	Status  int    `json:"-"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// NewError builds an Error.
func NewError(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// BadRequest is a 400 with code VALIDATION_ERROR, the spec's code for invalid input.
func BadRequest(message string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "VALIDATION_ERROR", Message: message}
}

// DecodeJSON reads a JSON object of at most max bytes into dst. Unknown fields are ignored
// (Better Auth's client may send extras); syntax errors, wrong types and oversized bodies are
// 400s, worded as Better Auth's router (better-call) and zod word them. A form body
// (application/x-www-form-urlencoded) is read as an object of strings, as better-call reads
// one; the routes that take forms say so with CheckContentType before the handler runs.
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any, max int64) error {
	if max <= 0 {
		max = DefaultMaxBody
	}
	body := http.MaxBytesReader(w, r.Body, max)
	data, err := io.ReadAll(body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Code: "PAYLOAD_TOO_LARGE", Message: "Request body is too large"}
		}
		return BadRequest("Could not read the request body")
	}
	if mediaType(r) == formType {
		if data, err = formAsJSON(data); err != nil {
			return BadRequest("[body] Invalid form body")
		}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		trimmed = []byte("{}")
	}
	if !json.Valid(trimmed) {
		return errInvalidJSON
	}
	if trimmed[0] != '{' {
		return BadRequest("[body] Invalid input: expected object, received " + jsonKind(trimmed[0]))
	}
	if err := json.Unmarshal(trimmed, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return BadRequest(fmt.Sprintf("[body.%s] Invalid input: expected %s, received %s", typeErr.Field, typeErr.Type.Kind(), typeErr.Value))
		}
		return errInvalidJSON
	}
	return nil
}

// errInvalidJSON is better-call's answer to a body that is not JSON.
var errInvalidJSON = &Error{Status: http.StatusBadRequest, Code: "BAD_REQUEST", Message: "Invalid JSON in request body"}

// jsonKind names a JSON value by its first byte, in zod's words.
func jsonKind(b byte) string {
	switch b {
	case '[':
		return "array"
	case '"':
		return "string"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	default:
		return "number"
	}
}

const (
	jsonType = "application/json"
	formType = "application/x-www-form-urlencoded"
)

// The media types state-changing routes declare, in the order a 415 answer lists them.
var (
	JSONOnly   = []string{jsonType}
	JSONOrForm = []string{jsonType, formType}
	FormOrJSON = []string{formType, jsonType}
)

// mediaType is the request's Content-Type without parameters, lower-cased.
func mediaType(r *http.Request) string {
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	return strings.ToLower(strings.TrimSpace(ct))
}

// hasBody reports whether a request carries a body (a known length above zero, or chunked).
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// CheckContentType refuses a body whose media type is not one of allowed with 415
// UNSUPPORTED_MEDIA_TYPE, in better-call's words. A request without a body passes.
func CheckContentType(r *http.Request, allowed []string) *Error {
	if !hasBody(r) {
		return nil
	}
	mt := mediaType(r)
	for _, a := range allowed {
		if mt == a {
			return nil
		}
	}
	list := strings.Join(allowed, ", ")
	if mt == "" {
		return &Error{Status: http.StatusUnsupportedMediaType, Code: "UNSUPPORTED_MEDIA_TYPE", Message: "Content-Type is required. Allowed types: " + list}
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: "UNSUPPORTED_MEDIA_TYPE",
		Message: fmt.Sprintf("Content-Type %q is not allowed. Allowed types: %s", r.Header.Get("Content-Type"), list)}
}

// formAsJSON turns a urlencoded form into a JSON object of strings (the last value of a
// repeated name, as FormData.forEach leaves it).
func formAsJSON(data []byte) ([]byte, error) {
	form, err := url.ParseQuery(string(data))
	if err != nil {
		return nil, err
	}
	obj := make(map[string]string, len(form))
	for k, v := range form {
		obj[k] = v[len(v)-1]
	}
	return json.Marshal(obj)
}

// WriteJSON writes v with the given status. Responses are never cached by intermediaries.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteError answers err. An *Error is written as is; anything else is logged once and
// answered as a 500 without its details, so internals never reach the client.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	if errors.As(err, &e) {
		WriteJSON(w, e.Status, e)
		return
	}
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		return // the client went away; there is no one to answer and nothing went wrong here
	}
	slog.Error("request failed", slog.Group("request", "method", r.Method, "path", r.URL.Path), "error", err)
	WriteJSON(w, http.StatusInternalServerError, &Error{Code: "INTERNAL_SERVER_ERROR", Message: "Internal server error"})
}

// NotFound answers JSON 404 for API paths that do not exist.
func NotFound(w http.ResponseWriter, r *http.Request) {
	WriteJSON(w, http.StatusNotFound, &Error{Code: "NOT_FOUND", Message: "Not Found"})
}
