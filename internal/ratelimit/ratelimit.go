// Package ratelimit counts requests per key in fixed windows. One interface, several stores:
// memory (one process), and later the database and Redis (several servers sharing limits).
package ratelimit

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Rule is a window and how many requests it allows.
type Rule struct {
	Window time.Duration
	Max    int
}

// Limiter decides whether one more request under key is allowed. When not, it says how long
// until the window resets.
type Limiter interface {
	Allow(ctx context.Context, key string, rule Rule) (ok bool, retryAfter time.Duration, err error)
}

// Off allows everything (rate limiting disabled).
type Off struct{}

// Allow always allows.
func (Off) Allow(context.Context, string, Rule) (bool, time.Duration, error) { return true, 0, nil }

// Memory keeps counters in this process, like Better Auth's memory storage.
type Memory struct {
	mu      sync.Mutex
	records map[string]record
	now     func() time.Time
}

type record struct {
	count       int
	lastRequest time.Time
}

// NewMemory returns an empty in-memory limiter.
func NewMemory() *Memory { return &Memory{records: map[string]record{}, now: time.Now} }

// Allow counts one request under key.
func (m *Memory) Allow(_ context.Context, key string, rule Rule) (bool, time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	rec, ok := m.records[key]
	if !ok || now.Sub(rec.lastRequest) > rule.Window {
		m.records[key] = record{count: 1, lastRequest: now}
		m.sweep(now, rule.Window)
		return true, 0, nil
	}
	if rec.count >= rule.Max {
		return false, rule.Window - now.Sub(rec.lastRequest), nil
	}
	m.records[key] = record{count: rec.count + 1, lastRequest: now}
	return true, 0, nil
}

// sweep drops stale records now and then so the map does not grow without bound.
func (m *Memory) sweep(now time.Time, window time.Duration) {
	if len(m.records) < 10000 {
		return
	}
	for k, r := range m.records {
		if now.Sub(r.lastRequest) > 10*window {
			delete(m.records, k)
		}
	}
}

// New returns the limiter for a storage name: "memory", "database" (db with its rebind) or
// "redis" (rdb, the deployment's shared client).
func New(storage string, rdb *redis.Client, db *sql.DB, rebind func(string) string) (Limiter, error) {
	switch storage {
	case "redis":
		if rdb == nil {
			return nil, errors.New("AUTH_RATE_LIMIT_STORAGE: redis needs REDIS_URL")
		}
		return NewRedis(rdb, "sellertrends:ratelimit:"), nil
	case "memory":
		return NewMemory(), nil
	}
	return NewDatabase(db, rebind), nil
}
