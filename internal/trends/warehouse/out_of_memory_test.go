package warehouse

import (
	"database/sql"
	"errors"
	"fmt"
	"testing"
)

// outOfMemoryError runs a statement that cannot fit DuckDB's memory limit (a list aggregate
// cannot spill) and returns its error, wrapped as the warehouse wraps errors.
func outOfMemoryError(t *testing.T) error {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`set memory_limit = '16MB'`); err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`create temp table t as select list(range) l from range(20000000)`)
	if err == nil {
		t.Fatal("a 20M-element list fit in 16 MB")
	}
	return fmt.Errorf("measures at a past period: %w", err)
}

func TestOutOfMemoryKnowsDuckDBsError(t *testing.T) {
	if err := outOfMemoryError(t); !OutOfMemory(err) {
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
