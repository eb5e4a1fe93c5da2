package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// WatchlistItem is a term, product (ASIN) or brand a workspace watches.
type WatchlistItem struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"` // term | asin | brand
	Value     string    `json:"value"`
	CreatedAt time.Time `json:"createdAt"`
}

// ErrDuplicate is returned when an item is already on the list.
var ErrDuplicate = fmt.Errorf("already exists")

// Watchlist lists a workspace's items, oldest first.
func (s *Store) Watchlist(ctx context.Context, workspaceID string) ([]WatchlistItem, error) {
	rows, err := s.query(ctx, `select "id", "kind", "value", "createdAt" from "watchlistItem" where "workspaceId" = ? order by "createdAt", "id"`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("watchlist: list: %w", err)
	}
	defer rows.Close()
	out := []WatchlistItem{}
	for rows.Next() {
		var it WatchlistItem
		var created dbTime
		if err := rows.Scan(&it.ID, &it.Kind, &it.Value, &created); err != nil {
			return nil, err
		}
		it.CreatedAt = created.Time
		out = append(out, it)
	}
	return out, rows.Err()
}

// AddWatchlistItem adds an item unless the list already holds it or has reached limit.
func (s *Store) AddWatchlistItem(ctx context.Context, workspaceID string, it WatchlistItem, limit int) error {
	var n int
	if err := s.queryRow(ctx, `select count(*) from "watchlistItem" where "workspaceId" = ?`, workspaceID).Scan(&n); err != nil {
		return err
	}
	if n >= limit {
		return ErrLimit
	}
	_, err := s.exec(ctx, `insert into "watchlistItem" ("id", "workspaceId", "kind", "value", "createdAt") values (?, ?, ?, ?, ?)`,
		it.ID, workspaceID, it.Kind, it.Value, s.dialect.timeArg(it.CreatedAt))
	if err != nil && strings.Contains(strings.ToLower(err.Error()), "unique") {
		return ErrDuplicate
	}
	if err != nil {
		return fmt.Errorf("watchlist: add: %w", err)
	}
	return nil
}

// ErrLimit is returned when a list is full for the workspace's plan.
var ErrLimit = fmt.Errorf("limit reached")

// RemoveWatchlistItem deletes an item of the workspace (ErrNotFound if it has no such item).
func (s *Store) RemoveWatchlistItem(ctx context.Context, workspaceID, id string) error {
	res, err := s.exec(ctx, `delete from "watchlistItem" where "workspaceId" = ? and "id" = ?`, workspaceID, id)
	if err != nil {
		return fmt.Errorf("watchlist: remove: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
