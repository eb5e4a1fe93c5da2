package trends

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// A question DuckDB runs out of memory for answers 503 with a retry hint, not a server error;
// the error is DuckDB's own, from a statement that cannot fit its limit.
func TestQuestionOutOfMemoryAnswers503(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`set memory_limit = '16MB'`); err != nil {
		t.Fatal(err)
	}
	_, dbErr := db.Exec(`create temp table t as select list(range) l from range(20000000)`)
	if dbErr == nil {
		t.Fatal("a 20M-element list fit in 16 MB")
	}
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
