package redisstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/toolcall/redisstore"
)

// A Checker whose sessions live in Redis, as judge serve and judge call
// build it when JUDGE_REDIS_URL is set (redis://host:6379/0, or
// redis+cluster://host:6379?addr=host2:6379 for a Redis Cluster): every
// replica made this way on the same server or cluster sees the same
// sessions. The example needs a Redis server, so
// it is compiled but not run; TestRedisDocumentedUse runs the same steps
// against a redis-server it starts.
func ExampleNew() {
	store, err := redisstore.New(os.Getenv("JUDGE_REDIS_URL"), redisstore.Options{TTL: 10 * time.Minute})
	if err != nil {
		log.Fatal(err) // malformed URL
	}
	defer store.Close()
	ctx := context.Background()
	if err := store.Ping(ctx); err != nil {
		log.Fatal(err) // names the server: "redis session store at redis://host:6379/0: ping: …"
	}
	checker, err := toolcall.New(toolcall.WithStore(store))
	if err != nil {
		log.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions([]byte(`{"name": "list_issues", "inputSchema": {"type": "object", "properties": {"owner": {"type": "string"}}}}`), "tools.json")
	if err != nil {
		log.Fatal(err)
	}
	tools, err := checker.NewToolset(defs...)
	if err != nil {
		log.Fatal(err)
	}
	res, err := tools.Check(ctx, toolcall.Call{Tool: "list_issues", Arguments: json.RawMessage(`{"owner": 7}`), SessionID: "agent-7"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Result.Valid, res.Repair.Attempt)
}
