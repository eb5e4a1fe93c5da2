// Package httpx holds the small HTTP helpers every handler shares: capped JSON decoding with
// typed 400s, JSON writers and the one error writer that logs a 500 exactly once.
package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
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
// (Better Auth's client may send extras); syntax errors, wrong types and oversized bodies are 400s.
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
	if len(strings.TrimSpace(string(data))) == 0 {
		data = []byte("{}")
	}
	if err := json.Unmarshal(data, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "" {
			return BadRequest("Body must be an object")
		}
		if errors.As(err, &typeErr) {
			return BadRequest(fmt.Sprintf("[body.%s] Invalid input: expected %s, received %s", typeErr.Field, typeErr.Type.Kind(), typeErr.Value))
		}
		return BadRequest("Invalid JSON body")
	}
	return nil
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
