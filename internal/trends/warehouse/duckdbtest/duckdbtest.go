// Package duckdbtest gives tests real DuckDB errors to handle.
package duckdbtest

import (
	"database/sql"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the driver
)

// OutOfMemoryError runs a statement that cannot fit DuckDB's memory limit (a list aggregate
// cannot spill) and returns DuckDB's own error.
func OutOfMemoryError(t testing.TB) error {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the limit is set on the connection the statement then runs on
	if _, err := db.Exec(`set memory_limit = '16MB'`); err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`create temp table t as select list(range) l from range(20000000)`)
	if err == nil {
		t.Fatal("a 20M-element list fit in 16 MB")
	}
	return err
}
