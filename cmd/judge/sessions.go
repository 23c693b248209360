package main

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/toolcall/redisstore"
)

// RedisURLEnv names the environment variable that keeps the sessions of
// judge serve and judge call in Redis (redis://host:port/db, or
// redis+cluster://host:port?addr=host:port for a Redis Cluster; see
// redisstore.New), so that several replicas, or several runs of judge call,
// share them. Unset or empty keeps them in memory, for the life of the
// process.
const RedisURLEnv = "JUDGE_REDIS_URL"

// sessions is where a command keeps tool-call sessions.
type sessions struct {
	redis *redisstore.Store // nil: in memory
}

// sessionStore returns the session store JUDGE_REDIS_URL selects. A
// malformed URL is bad input naming the variable. Close what it returns.
func sessionStore(getenv func(string) string) (sessions, error) {
	if getenv == nil {
		return sessions{}, nil
	}
	raw := getenv(RedisURLEnv)
	if raw == "" {
		return sessions{}, nil
	}
	quietRedis.Do(func() { redis.SetLogger(discardRedisLog{}) })
	store, err := redisstore.New(raw, redisstore.Options{})
	if err != nil {
		return sessions{}, badInputf("%s: %v", RedisURLEnv, err)
	}
	return sessions{redis: store}, nil
}

// options returns the checker options that use the store.
func (s sessions) options() []toolcall.Option {
	if s.redis == nil {
		return nil
	}
	return []toolcall.Option{toolcall.WithStore(s.redis)}
}

// String says where sessions are kept: "memory", or the Redis server's URL
// without its password.
func (s sessions) String() string {
	if s.redis == nil {
		return "memory"
	}
	return s.redis.Where()
}

// ping checks that the Redis server answers; memory always does.
func (s sessions) ping(ctx context.Context) error {
	if s.redis == nil {
		return nil
	}
	return s.redis.Ping(ctx)
}

// close closes the connections to Redis.
func (s sessions) close() {
	if s.redis != nil {
		_ = s.redis.Close()
	}
}

// quietRedis silences the Redis client's own log lines, once: its failures
// come back as errors naming the server, and judge reports those.
var quietRedis sync.Once

// discardRedisLog is a Redis client logger that writes nothing.
type discardRedisLog struct{}

func (discardRedisLog) Printf(context.Context, string, ...any) {}
