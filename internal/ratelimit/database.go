package ratelimit

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Database keeps counters in Better Auth's "rateLimit" table (key, count, lastRequest in epoch
// ms), so several servers sharing one database share limits.
type Database struct {
	db     *sql.DB
	rebind func(string) string
	now    func() time.Time

	mu        sync.Mutex
	maxWindow time.Duration // the longest window asked for, which old rows must outlive
	lastSweep time.Time
}

const (
	// sweepEvery is how often a server deletes expired rows (each row is one caller and route).
	sweepEvery = time.Minute
	// minRetention keeps rows at least this long, whatever the windows seen by this process: a
	// longer window used only by another server (the device flow's) keeps its rows.
	minRetention = time.Hour
)

// NewDatabase uses db; rebind adapts ?-placeholders to the dialect (store.Rebind).
func NewDatabase(db *sql.DB, rebind func(string) string) *Database {
	return &Database{db: db, rebind: rebind, now: time.Now}
}

// allowSQL counts one request in one statement, so concurrent requests for a key (on any
// number of servers) neither lose counts nor collide on the key's unique index: the first
// inserts, the others update. A window that has passed starts over at 1; otherwise the count
// goes up, and lastRequest moves only while the request is allowed (as Better Auth does: a
// refused request changes nothing that the window depends on). Parameters: id, key, now, then
// now and window (ms), then max and now.
const allowSQL = `insert into "rateLimit" ("id", "key", "count", "lastRequest") values (?, ?, 1, ?)
	on conflict ("key") do update set
		"count" = case when ? - "rateLimit"."lastRequest" > ? then 1 else "rateLimit"."count" + 1 end,
		"lastRequest" = case when ? - "rateLimit"."lastRequest" > ? or "rateLimit"."count" < ? then ? else "rateLimit"."lastRequest" end
	returning "count", "lastRequest"`

// Allow counts one request under key.
func (d *Database) Allow(ctx context.Context, key string, rule Rule) (bool, time.Duration, error) {
	now := d.now()
	ms, window := now.UnixMilli(), rule.Window.Milliseconds()
	id := make([]byte, 16)
	rand.Read(id)
	var count int
	var last int64
	err := d.db.QueryRowContext(ctx, d.rebind(allowSQL), hex.EncodeToString(id), key, ms, ms, window, ms, window, rule.Max, ms).Scan(&count, &last)
	if err != nil {
		return false, 0, fmt.Errorf("rate limit: count: %w", err)
	}
	d.sweepIfDue(ctx, now, rule.Window)
	if count > rule.Max {
		return false, rule.Window - time.Duration(ms-last)*time.Millisecond, nil
	}
	return true, 0, nil
}

// sweepIfDue deletes, at most once per sweepEvery, the rows whose every window has passed, so
// the table holds only callers seen lately rather than every IP that ever called.
func (d *Database) sweepIfDue(ctx context.Context, now time.Time, window time.Duration) {
	d.mu.Lock()
	d.maxWindow = max(d.maxWindow, window)
	if now.Sub(d.lastSweep) < sweepEvery {
		d.mu.Unlock()
		return
	}
	d.lastSweep = now
	cutoff := now.Add(-max(d.maxWindow, minRetention)).UnixMilli()
	d.mu.Unlock()
	if _, err := d.db.ExecContext(ctx, d.rebind(`delete from "rateLimit" where "lastRequest" < ?`), cutoff); err != nil {
		slog.Error("rate limit: deleting old rows", "error", err)
	}
}

// SetClock replaces the clock (tests of the sweep).
func (d *Database) SetClock(now func() time.Time) { d.now = now }
