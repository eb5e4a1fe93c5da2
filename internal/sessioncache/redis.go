// Package sessioncache keeps session lookups in Redis, shared by every server of a deployment
// (store.SessionCache).
package sessioncache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sellertrends/sellertrends/internal/store"
)

// Redis keys, under a prefix:
//
//	t:<token>   the session and its user as JSON, expiring with the entry's TTL
//	u:<userId>  the set of that user's cached tokens, so all of them can be dropped at once
//	gen         a counter bumped by every invalidation; a fill carries the value it saw before
//	            reading the database and is refused if the counter moved meanwhile, so a read
//	            racing with a revocation cannot put the revoked session back
type Redis struct {
	client *redis.Client
	prefix string
}

// Prefix is where sellertrends keeps its session keys; every server of a deployment uses it.
const Prefix = "sellertrends:session:"

// New caches through client (which the caller closes); keys start with prefix.
func New(client *redis.Client, prefix string) *Redis {
	return &Redis{client: client, prefix: prefix}
}

type entry struct {
	Session *store.Session `json:"session"`
	User    *store.User    `json:"user"`
}

// Lookup implements store.SessionCache: one round trip for the entry and the counter.
func (r *Redis) Lookup(ctx context.Context, token string) (*store.Session, *store.User, string, bool, error) {
	vals, err := r.client.MGet(ctx, r.prefix+"t:"+token, r.prefix+"gen").Result()
	if err != nil {
		return nil, nil, "", false, fmt.Errorf("session cache: %w", err)
	}
	ticket := "0"
	if g, ok := vals[1].(string); ok {
		ticket = g
	}
	raw, ok := vals[0].(string)
	if !ok {
		return nil, nil, ticket, false, nil
	}
	var e entry
	if err := json.Unmarshal([]byte(raw), &e); err != nil || e.Session == nil || e.User == nil || e.Session.Token != token {
		return nil, nil, ticket, false, errors.Join(errors.New("session cache: unreadable entry"), err)
	}
	return e.Session, e.User, ticket, true, nil
}

var fillScript = redis.NewScript(`
local gen = redis.call("GET", KEYS[3]) or "0"
if gen ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
redis.call("SADD", KEYS[2], ARGV[4])
if redis.call("PTTL", KEYS[2]) < tonumber(ARGV[3]) then redis.call("PEXPIRE", KEYS[2], ARGV[3]) end
return 1`)

// Fill implements store.SessionCache.
func (r *Redis) Fill(ctx context.Context, ticket string, sess *store.Session, user *store.User, ttl time.Duration) error {
	raw, err := json.Marshal(entry{sess, user})
	if err != nil {
		return err
	}
	keys := []string{r.prefix + "t:" + sess.Token, r.prefix + "u:" + user.ID, r.prefix + "gen"}
	if err := fillScript.Run(ctx, r.client, keys, ticket, raw, max(ttl.Milliseconds(), 1), sess.Token).Err(); err != nil {
		return fmt.Errorf("session cache: fill: %w", err)
	}
	return nil
}

var invalidateScript = redis.NewScript(`
redis.call("INCR", KEYS[2])
local tokens = redis.call("SMEMBERS", KEYS[1])
for _, t in ipairs(tokens) do redis.call("DEL", ARGV[1] .. t) end
redis.call("DEL", KEYS[1])
return #tokens`)

// InvalidateUser implements store.SessionCache.
func (r *Redis) InvalidateUser(ctx context.Context, userID string) error {
	keys := []string{r.prefix + "u:" + userID, r.prefix + "gen"}
	if err := invalidateScript.Run(ctx, r.client, keys, r.prefix+"t:").Err(); err != nil {
		return fmt.Errorf("session cache: invalidate: %w", err)
	}
	return nil
}
