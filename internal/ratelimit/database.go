package ratelimit

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Database keeps counters in Better Auth's "rateLimit" table (key, count, lastRequest in epoch
// ms), so several servers sharing one database share limits.
type Database struct {
	db     *sql.DB
	rebind func(string) string
	now    func() time.Time
}

// NewDatabase uses db; rebind adapts ?-placeholders to the dialect (store.Rebind).
func NewDatabase(db *sql.DB, rebind func(string) string) *Database {
	return &Database{db: db, rebind: rebind, now: time.Now}
}

// Allow counts one request under key in a transaction, so concurrent servers do not lose counts.
func (d *Database) Allow(ctx context.Context, key string, rule Rule) (bool, time.Duration, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return false, 0, err
	}
	defer tx.Rollback()
	now := d.now().UnixMilli()
	var count int
	var last int64
	err = tx.QueryRowContext(ctx, d.rebind(`select "count", "lastRequest" from "rateLimit" where "key" = ?`), key).Scan(&count, &last)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		id := make([]byte, 16)
		rand.Read(id)
		_, err = tx.ExecContext(ctx, d.rebind(`insert into "rateLimit" ("id", "key", "count", "lastRequest") values (?, ?, 1, ?)`), hex.EncodeToString(id), key, now)
	case err != nil:
		return false, 0, fmt.Errorf("rate limit: read: %w", err)
	case now-last > rule.Window.Milliseconds():
		_, err = tx.ExecContext(ctx, d.rebind(`update "rateLimit" set "count" = 1, "lastRequest" = ? where "key" = ?`), now, key)
	case count >= rule.Max:
		return false, rule.Window - time.Duration(now-last)*time.Millisecond, nil
	default:
		_, err = tx.ExecContext(ctx, d.rebind(`update "rateLimit" set "count" = "count" + 1, "lastRequest" = ? where "key" = ?`), now, key)
	}
	if err != nil {
		return false, 0, fmt.Errorf("rate limit: write: %w", err)
	}
	return true, 0, tx.Commit()
}
