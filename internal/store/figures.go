package store

import (
	"context"
	"time"
)

// Figures are the account side's counts an operator watches (the admin page).
type Figures struct {
	Users          int   `json:"users"`
	ActiveSessions int   `json:"activeSessions"` // not expired
	Workspaces     int   `json:"workspaces"`
	DatabaseBytes  int64 `json:"databaseBytes"` // the SQL database's size on disk
}

// Figures counts users, unexpired sessions and workspaces, and measures the database.
func (s *Store) Figures(ctx context.Context, now time.Time) (Figures, error) {
	var f Figures
	err := s.queryRow(ctx, `select (select count(*) from "user"), (select count(*) from "session" where "expiresAt" > ?),
		(select count(*) from "workspace")`, s.dialect.timeArg(now)).Scan(&f.Users, &f.ActiveSessions, &f.Workspaces)
	if err != nil {
		return f, err
	}
	size := `select page_count * page_size from pragma_page_count(), pragma_page_size()`
	if s.Postgres() {
		size = `select pg_database_size(current_database())`
	}
	err = s.queryRow(ctx, size).Scan(&f.DatabaseBytes)
	return f, err
}
