package trends

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse/duckdbtest"
)

// A question DuckDB runs out of memory for answers 503 with a retry hint, not a server error;
// the error is DuckDB's own, from a statement that cannot fit its limit.
func TestQuestionOutOfMemoryAnswers503(t *testing.T) {
	dbErr := duckdbtest.OutOfMemoryError(t)
	cases := []struct {
		err    error
		status int
		code   string
	}{
		{fmt.Errorf("explore: %w", dbErr), http.StatusServiceUnavailable, "TRENDS_BUSY"},
		{warehouse.ErrNotFound, http.StatusNotFound, "NOT_FOUND"},
		{warehouse.ErrNoPeriod, http.StatusBadRequest, ""},
		{errors.New("something else"), http.StatusInternalServerError, "INTERNAL_SERVER_ERROR"},
	}
	for _, c := range cases {
		w, r := httptest.NewRecorder(), httptest.NewRequest("GET", "/api/trends/terms?at=2026-01-01", nil)
		httpx.WriteError(w, r, questionError(w, r, c.err))
		if w.Code != c.status {
			t.Fatalf("%v: status %d, want %d", c.err, w.Code, c.status)
		}
		var body struct{ Code, Message string }
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if c.code != "" && body.Code != c.code {
			t.Fatalf("%v: code %q, want %q", c.err, body.Code, c.code)
		}
		busy := c.status == http.StatusServiceUnavailable
		if (w.Header().Get("Retry-After") != "") != busy {
			t.Fatalf("%v: Retry-After %q", c.err, w.Header().Get("Retry-After"))
		}
		if busy && body.Message == "" {
			t.Fatal("the 503 says nothing to the seller")
		}
	}
}

// An export DuckDB runs out of memory for before its first row answers the same 503.
func TestExportOutOfMemoryAnswers503(t *testing.T) {
	dbErr := duckdbtest.OutOfMemoryError(t)
	w, r := httptest.NewRecorder(), httptest.NewRequest("GET", "/api/trends/terms.csv", nil)
	writeCSV(w, r, "x.csv", []string{"term"}, func(func([]string) error) error {
		return fmt.Errorf("explore: %w", dbErr)
	})
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Fatalf("status %d, Retry-After %q, body %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct == "text/csv; charset=utf-8" {
		t.Fatalf("an error answered as CSV: %s", w.Body)
	}
}
