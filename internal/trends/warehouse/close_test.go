package warehouse

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// A statement cancelled as it starts must not keep the database open after Close: duckdb-go
// can leave such a statement's state on its connection, and DuckDB then holds the file until
// that connection runs another statement, so opening the file again in this process (the
// server after `demo`, `import` after the server) would spin forever. Each round ends a
// statement on each of 12 connections with a cancel landing at a random point in its first few
// hundred microseconds; before Close flushed the connections, this hung within a few rounds.
func TestCloseAfterACancelledStatementReleasesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.duckdb")
	for round := range 30 {
		w, err := OpenFile(context.Background(), path, "")
		if err != nil {
			t.Fatal(err)
		}
		var conns []*sql.Conn
		for range 12 {
			c, err := w.db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		var wg sync.WaitGroup
		for _, c := range conns {
			wg.Go(func() {
				cancelledQuery(c)
				c.Close()
			})
		}
		wg.Wait()
		closeChecked(t, w)
		reopened := make(chan error, 1)
		go func() {
			c, err := duckdb.NewConnector(path, nil)
			if err == nil {
				err = c.Close()
			}
			reopened <- err
		}()
		select {
		case err := <-reopened:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("round %d: the file could not be opened again after Close", round)
		}
	}
}

// cancelledQuery runs a statement on c whose context is cancelled at a random point early in it.
func cancelledQuery(c *sql.Conn) {
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan struct{})
	go func() {
		defer close(cancelled)
		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond) // varies where the cancel lands
		cancel()
	}()
	var n int
	c.QueryRowContext(ctx, `select count(*) from period where dataset_id = ?`, 1).Scan(&n)
	<-cancelled
}
