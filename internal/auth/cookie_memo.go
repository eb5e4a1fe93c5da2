package auth

import (
	"sync"
	"time"
)

// cacheMemo remembers verified session_data cookies and the get-session answer they produce.
// A browser sends the same cookie for up to a minute, so the hot path skips base64, HMAC and JSON
// work after the first request. Entries are keyed by the exact cookie value that was verified,
// and expire with it; the map is reset when it grows past its bound.
type cacheMemo struct {
	mu sync.RWMutex
	m  map[string]memoEntry
}

type memoEntry struct {
	payload   *cachePayload
	body      []byte // the JSON get-session writes
	expiresAt time.Time
}

const memoMax = 50_000

func (c *cacheMemo) get(value string, now time.Time) (memoEntry, bool) {
	c.mu.RLock()
	e, ok := c.m[value]
	c.mu.RUnlock()
	if !ok || !now.Before(e.expiresAt) {
		return memoEntry{}, false
	}
	return e, true
}

func (c *cacheMemo) put(value string, e memoEntry) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= memoMax {
		c.m = make(map[string]memoEntry, 1024)
	}
	c.m[value] = e
	c.mu.Unlock()
}
