package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/redistest"
	"github.com/agentjudge/judge/toolcall"
)

// runJudgeEnv runs the judge binary in the repository's root with args and
// the variables env added to the environment (JUDGE_REDIS_URL removed unless
// env sets it).
func runJudgeEnv(t *testing.T, env []string, args ...string) run {
	t.Helper()
	var all []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, RedisURLEnv+"=") {
			all = append(all, kv)
		}
	}
	return execJudge(t, nil, append(all, env...), args...)
}

// With JUDGE_REDIS_URL, of one server or of a Redis Cluster, a session
// carries across runs of judge call (each its own process): the repair
// attempts of judge call check add up, and the fourth same call without
// progress (an empty result) in four runs of judge call outcome escalates. Without it, each run starts the session
// afresh.
func TestCallRedisSessionAcrossRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"server", func(t *testing.T) string { return redistest.Start(t).URL(0) }},
		{"cluster", func(t *testing.T) string { return redistest.StartCluster(t).URL() }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			testCallSessionAcrossRuns(t, tt.url(t))
		})
	}
}

// testCallSessionAcrossRuns is TestCallRedisSessionAcrossRuns on the Redis
// of redisURL.
func testCallSessionAcrossRuns(t *testing.T, redisURL string) {
	redisEnv := []string{RedisURLEnv + "=" + redisURL}

	check := func(env []string, session string) *toolcall.Repair {
		t.Helper()
		r := runJudgeEnv(t, env, "call", "check", "--defs", "examples/call-tools.json", "--session", session,
			"home_assistant", `{"action": "call_tool"}`)
		var res toolcall.CheckResult
		if r.code != 1 || json.Unmarshal([]byte(r.stdout), &res) != nil || res.Repair == nil || res.Repair.RemainingAttempts == nil {
			t.Fatalf("judge call check: exit %d, want 1 with a repair\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		return res.Repair
	}
	for want := 1; want <= 2; want++ {
		if rep := check(redisEnv, "across-check"); rep.Attempt != want || *rep.RemainingAttempts != 3-want {
			t.Errorf("run %d of judge call check with %s: attempt %d, %d remaining; want attempt %d, %d remaining",
				want, RedisURLEnv, rep.Attempt, *rep.RemainingAttempts, want, 3-want)
		}
	}
	for run := 1; run <= 2; run++ {
		if rep := check(nil, "across-check"); rep.Attempt != 1 {
			t.Errorf("run %d of judge call check in memory: attempt %d, want 1 (a new process, a new session)", run, rep.Attempt)
		}
	}

	outcome := func(env []string, session string) toolcall.Progress {
		t.Helper()
		r := runJudgeEnv(t, env, "call", "outcome", "--defs", "examples/call-tools.json", "--session", session,
			"get_events", `{"action": "by_ids", "ids": ["e1"]}`, `{"events": []}`)
		var o toolcall.Outcome
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &o) != nil || o.Progress == nil {
			t.Fatalf("judge call outcome: exit %d, want 0 with progress\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		return *o.Progress
	}
	var p toolcall.Progress
	for range 4 {
		p = outcome(redisEnv, "across-outcome")
	}
	if p.Verdict != toolcall.Escalate || p.Limit != "same_call" || p.Calls != 4 {
		t.Errorf("4th run of the same judge call outcome with %s: progress %+v, want escalate (same_call) after 4 calls", RedisURLEnv, p)
	}
	// The fifth stops and refuses the call: a later run of judge call
	// check of the same call exits 1 with the reason, though its arguments
	// are valid; other arguments pass.
	if p = outcome(redisEnv, "across-outcome"); p.Verdict != toolcall.Stop || !p.Refused {
		t.Errorf("5th run: progress %+v, want stop, refused", p)
	}
	for _, c := range []struct {
		args    string
		code    int
		refused bool
	}{{`{"action": "by_ids", "ids": ["e1"]}`, 1, true}, {`{"action": "by_ids", "ids": ["e2"]}`, 0, false}} {
		r := runJudgeEnv(t, redisEnv, "call", "check", "--defs", "examples/call-tools.json", "--session", "across-outcome", "get_events", c.args)
		var res toolcall.CheckResult
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != c.code || (res.Refused != "") != c.refused || !res.Result.Valid {
			t.Errorf("judge call check %s after the stop: exit %d, refused %q; want exit %d\nstderr: %s", c.args, r.code, res.Refused, c.code, r.stderr)
		}
	}
	for range 4 {
		p = outcome(nil, "across-outcome")
	}
	if p.Verdict != toolcall.Continue || p.Calls != 1 {
		t.Errorf("4th run in memory: progress %+v, want continue after 1 call", p)
	}
}

// A malformed JUDGE_REDIS_URL is bad input naming the variable (and not
// the password); an unreachable server is an error naming it, at once.
func TestCallRedisURLErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	tests := []struct {
		name, url string
		session   bool
		code      int
		wantErr   string
	}{
		{name: "not a URL", url: "localhost:6379", code: 2, wantErr: "judge: JUDGE_REDIS_URL: malformed Redis URL"},
		{name: "bad database", url: "redis://:s3cret@localhost:6379/zero", code: 2, wantErr: "judge: JUDGE_REDIS_URL: malformed Redis URL (want redis://[user:password@]host:port/db): invalid database number"},
		{name: "malformed without a session", url: "http://localhost", code: 2, wantErr: "JUDGE_REDIS_URL: malformed Redis URL"},
		{name: "cluster database", url: "redis+cluster://:s3cret@localhost:6379/2", code: 2, wantErr: "judge: JUDGE_REDIS_URL: malformed Redis Cluster URL (want redis+cluster://[user:password@]host:port?addr=host:port): a Redis Cluster has only database 0"},
		{name: "unreachable cluster", url: "redis+cluster://:s3cret@" + closed, session: true, code: 2,
			wantErr: "redis session store at redis+cluster://" + closed + ": update session \"s\": "},
		{name: "unreachable", url: "redis://" + closed + "/0", session: true, code: 2,
			wantErr: "redis session store at redis://" + closed + "/0: update session \"s\": "},
		{name: "unreachable, no session needed", url: "redis://" + closed + "/0", code: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(RedisURLEnv, tt.url)
			args := []string{"call", "check", "--defs", toolsFile(t)}
			if tt.session {
				args = append(args, "--session", "s")
			}
			args = append(args, "home_assistant", `{"action": "call_tool"}`)
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := Execute(context.Background(), args, nil, &stdout, &stderr)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if code != tt.code || !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("exit %d, want %d; stderr %q, want it to contain %q", code, tt.code, stderr.String(), tt.wantErr)
			}
			if strings.Contains(stderr.String(), "s3cret") {
				t.Errorf("stderr repeats the password: %s", stderr.String())
			}
		})
	}
}

// startServe runs judge serve on a free port with the environment getenv
// until t ends, and returns its base URL.
func startServe(t *testing.T, getenv func(string) string) string {
	t.Helper()
	params := newServeParams()
	params.addr = "127.0.0.1:0"
	params.defs = toolsFile(t)
	params.getenv = getenv
	return serveInProcess(t, params, nil).URL
}

// serveRecord is a log record of judge serve: the one that says where it
// listens, with what it loaded.
type serveRecord struct {
	URL, Model string
	Sources    int
}

// serveInProcess runs runServe with params in this process until t ends,
// then checks that it shut down cleanly. It returns the first log record
// with a URL that ready accepts (any, when ready is nil).
func serveInProcess(t *testing.T, params serveParams, ready func(serveRecord) bool) serveRecord {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, params, nil, pw)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	recc := make(chan serveRecord, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var rec serveRecord
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.URL != "" && (ready == nil || ready(rec)) {
				select {
				case recc <- rec:
				default:
				}
			}
		}
	}()
	select {
	case rec := <-recc:
		return rec
	case err := <-done:
		done <- err
		t.Fatalf("serve ended before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("serve logged no ready address within 20s")
	}
	return serveRecord{}
}

// Two judge serve replicas with the same JUDGE_REDIS_URL share a session:
// the same call posted twice to each crosses the same-call limit.
func TestServeRedisReplicas(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	getenv := func(k string) string {
		if k == RedisURLEnv {
			return srv.URL(0)
		}
		return ""
	}
	replicas := []string{startServe(t, getenv), startServe(t, getenv)}
	var p toolcall.Progress
	for i := range 4 {
		resp, err := http.Post(replicas[i%2]+"/v1/calls/outcome", "application/json", strings.NewReader(
			`{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "result": {"events": []}, "session_id": "replicated"}`))
		if err != nil {
			t.Fatal(err)
		}
		var o toolcall.Outcome
		err = json.NewDecoder(resp.Body).Decode(&o)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil || o.Progress == nil {
			t.Fatalf("POST /v1/calls/outcome to replica %d: %d, %v", i%2, resp.StatusCode, err)
		}
		p = *o.Progress
	}
	if p.Verdict != toolcall.Escalate || p.Limit != "same_call" || p.Calls != 4 {
		t.Errorf("4th same call across two replicas: progress %+v, want escalate (same_call) after 4 calls", p)
	}
}

// judge serve does not start on a malformed JUDGE_REDIS_URL (bad input
// naming it) nor on an unreachable server (an error naming it).
func TestServeRedisErrors(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	for _, tt := range []struct{ url, wantErr string }{
		{"redis://localhost:6379/x", "JUDGE_REDIS_URL: malformed Redis URL"},
		{"redis://" + closed + "/0", "redis session store at redis://" + closed + "/0: ping: "},
		{"redis+cluster://" + closed, "redis session store at redis+cluster://" + closed + ": ping: "},
	} {
		params := newServeParams()
		params.addr = "127.0.0.1:0"
		params.getenv = func(k string) string {
			if k == RedisURLEnv {
				return tt.url
			}
			return ""
		}
		start := time.Now()
		err := runServe(context.Background(), params, nil, io.Discard)
		if err == nil || exitCode(err) != exitBadInput || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("serve with %s=%s: %v, want exit 2 with %q", RedisURLEnv, tt.url, err, tt.wantErr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("serve took %v to fail", d)
		}
	}
}
