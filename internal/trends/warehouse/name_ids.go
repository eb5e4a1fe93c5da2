package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// nameIDs numbers the names of a small dictionary (brands, categories) while the rows are
// staged, so the staged rows hold their ids and the period's rows need no string joins:
// three brand and three category names per row, looked up by name in SQL, were six hash joins
// over every staged row plus two passes over the names to find the new ones. These
// dictionaries are small (a brand per product line, not per product), so they are read whole
// at the start of each import, under the writer lock that also keeps anyone else from adding
// to them until the import's transaction ends; names new to it are numbered after its
// largest id and added in the transaction (add).
type nameIDs struct {
	table string

	mu    sync.Mutex
	ids   map[string]int32
	first int32    // the id of added[0]
	added []string // names the report brought, in the order they were numbered
}

func loadNameIDs(ctx context.Context, conn *sql.Conn, table string) (*nameIDs, error) {
	d := &nameIDs{table: table, ids: map[string]int32{}}
	rows, err := conn.QueryContext(ctx, `select id, name from `+table)
	if err != nil {
		return nil, fmt.Errorf("import: %s: %w", table, err)
	}
	defer rows.Close()
	var most int32
	for rows.Next() {
		var id int32
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("import: %s: %w", table, err)
		}
		d.ids[name] = id
		most = max(most, id)
	}
	d.first = most + 1
	return d, rows.Err()
}

// id returns name's id, numbering it if it is new.
func (d *nameIDs) id(name string) int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.ids[name]
	if !ok {
		id = d.first + int32(len(d.added))
		d.ids[name] = id
		d.added = append(d.added, name)
	}
	return id
}

// add inserts the new names that the staged rows (the table named rows, after any lenient
// drop) refer to in columns.
func (d *nameIDs) add(ctx context.Context, tx *sql.Tx, rows string, columns ...string) error {
	if len(d.added) == 0 {
		return nil
	}
	used := ""
	for i, c := range columns {
		if i > 0 {
			used += " union all "
		}
		used += "select " + c + " from " + rows
	}
	_, err := tx.ExecContext(ctx, `insert into `+d.table+` select * from (
		select ?::integer + i - 1 as id, name from (select unnest(?::varchar[]) as name, generate_subscripts(?::varchar[], 1) as i))
		where id in (`+used+`)`, d.first, d.added, d.added)
	if err != nil {
		return fmt.Errorf("import: %s: %w", d.table, err)
	}
	return nil
}
