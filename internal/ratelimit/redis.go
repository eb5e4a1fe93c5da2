package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis counts in a shared Redis (REDIS_URL): one key per caller and path that expires with its
// window, incremented atomically, so any number of servers share the same limits.
type Redis struct {
	client *redis.Client
	prefix string
}

// NewRedis counts through client (which the caller closes) under keys starting with prefix.
func NewRedis(client *redis.Client, prefix string) *Redis {
	return &Redis{client: client, prefix: prefix}
}

// allowScript increments the counter and starts its window on the first request, atomically.
var allowScript = redis.NewScript(`
local n = redis.call("INCR", KEYS[1])
if n == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end
return {n, redis.call("PTTL", KEYS[1])}`)

// Allow counts one request under key.
func (r *Redis) Allow(ctx context.Context, key string, rule Rule) (bool, time.Duration, error) {
	res, err := allowScript.Run(ctx, r.client, []string{r.prefix + key}, rule.Window.Milliseconds()).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("rate limit: redis: %w", err)
	}
	if int(res[0]) > rule.Max {
		return false, time.Duration(res[1]) * time.Millisecond, nil
	}
	return true, 0, nil
}
