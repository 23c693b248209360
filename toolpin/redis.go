package toolpin

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisKey is the hash the pins are kept in.
const DefaultRedisKey = "judge:pins"

// Redis is a Store in a Redis hash: one field per pin (server, NUL, tool),
// the pin as JSON its value. Save writes every pin it is given and deletes
// none, so replicas sharing the hash never erase each other's pins.
type Redis struct {
	Client *redis.Client
	Key    string
}

// OpenRedis connects to the Redis server of a redis:// or rediss:// URL
// (the one JUDGE_REDIS_URL names) and checks that it answers.
func OpenRedis(ctx context.Context, rawURL string) (*Redis, error) {
	if !strings.HasPrefix(rawURL, "redis://") && !strings.HasPrefix(rawURL, "rediss://") {
		return nil, fmt.Errorf("toolpin: pins in Redis need a redis:// or rediss:// URL; give a pin file instead")
	}
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("toolpin: %w", err)
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = 5 * time.Second
	}
	c := redis.NewClient(opts)
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		return nil, fmt.Errorf("toolpin: redis: %w", err)
	}
	return &Redis{Client: c, Key: DefaultRedisKey}, nil
}

// Close closes the connection.
func (r *Redis) Close() error { return r.Client.Close() }

// Load reads every pin of the hash.
func (r *Redis) Load(ctx context.Context) ([]Pin, error) {
	m, err := r.Client.HGetAll(ctx, r.Key).Result()
	if err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	pins := make([]Pin, 0, len(m))
	for field, v := range m {
		var p Pin
		if err := json.Unmarshal([]byte(v), &p); err != nil {
			return nil, fmt.Errorf("redis: %s field %q: not a pin: %w", r.Key, field, err)
		}
		pins = append(pins, p)
	}
	return pins, nil
}

// Save writes the pins into the hash in one command.
func (r *Redis) Save(ctx context.Context, pins []Pin) error {
	if len(pins) == 0 {
		return nil
	}
	args := make([]any, 0, 2*len(pins))
	for _, p := range pins {
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		args = append(args, key(p.Server, p.Tool), string(b))
	}
	if err := r.Client.HSet(ctx, r.Key, args...).Err(); err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	return nil
}
