package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"
)

// Column is a column a plugin adds to a core table ("user", "session"), with its type in each
// dialect as Better Auth's migration writes it (e.g. boolean: "integer default 0" on SQLite,
// "boolean default false" on PostgreSQL).
type Column struct {
	Name, SQLite, Postgres string
}

// AddColumns is a goose Go migration (for Migrate) adding cols to table. Columns that exist
// already are left alone, so a database where Better Auth added them is adopted as is.
func (s *Store) AddColumns(version int64, table string, cols ...Column) *goose.Migration {
	up := func(ctx context.Context, tx *sql.Tx) error {
		for _, c := range cols {
			if err := s.addColumn(ctx, tx, table, c); err != nil {
				return fmt.Errorf("add column %s.%s: %w", table, c.Name, err)
			}
		}
		return nil
	}
	return goose.NewGoMigration(version, &goose.GoFunc{RunTx: up}, nil)
}

func (s *Store) addColumn(ctx context.Context, tx *sql.Tx, table string, c Column) error {
	if s.dialect == postgres {
		_, err := tx.ExecContext(ctx, fmt.Sprintf(`alter table %q add column if not exists %q %s`, table, c.Name, c.Postgres))
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `select count(*) from pragma_table_info(?) where name = ?`, table, c.Name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, fmt.Sprintf(`alter table %q add column %q %s`, table, c.Name, c.SQLite))
	return err
}

// InvalidateUser drops the user's cached sessions (REDIS_URL) after a plugin changed the user
// or their sessions with its own SQL.
func (s *Store) InvalidateUser(ctx context.Context, userID string) error {
	return s.invalidateUser(ctx, userID)
}
