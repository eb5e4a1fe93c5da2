package warehouse

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"

	"github.com/sellertrends/sellertrends/internal/trends/warehouse/duckdbtest"
)

func TestOutOfMemoryKnowsDuckDBsError(t *testing.T) {
	// wrapped as the warehouse wraps the errors of its statements
	err := fmt.Errorf("measures at a past period: %w", duckdbtest.OutOfMemoryError(t))
	if !OutOfMemory(err) {
		t.Fatalf("not recognised as out of memory: %v", err)
	}
	if OutOfMemory(nil) || OutOfMemory(errors.New("Out of Memory Error: a message, not DuckDB's error")) {
		t.Fatal("recognised an error that is not DuckDB's")
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec(`select * from no_such_table`)
	if err == nil || OutOfMemory(err) {
		t.Fatalf("a missing table recognised as out of memory: %v", err)
	}
}
