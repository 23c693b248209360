// Command load is the load generator of bench/run, run as its own process
// so that it does not share a CPU scheduler or a garbage collector with
// the server it measures. It POSTs the request bodies of a file (one JSON
// document a line, sent in turn) from -conns connections for -duration
// and prints one JSON line: requests, requests per second, status counts,
// and p50/p99/max latency in nanoseconds. An answer other than 200 is
// counted as "unexpected-status".
//
//	go run ./bench/load -url http://127.0.0.1:8080 -path /validate -bodies bodies.jsonl -conns 16 -duration 10s
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/agentjudge/judge/bench/internal/load"
)

func main() {
	url := flag.String("url", "", "the server's base URL (loopback only)")
	path := flag.String("path", "/validate", "the path to POST to")
	bodies := flag.String("bodies", "", "a file of request bodies, one JSON document a line")
	conns := flag.Int("conns", 1, "concurrent connections")
	duration := flag.Duration("duration", 5*time.Second, "how long to send")
	flag.Parse()
	list, err := readLines(*bodies)
	if err != nil {
		log.Fatal(err)
	}
	if *duration <= 0 || *duration > 10*time.Minute {
		log.Fatal("load: -duration must be between 0 and 10m")
	}
	check := func(code int, _ []byte) string {
		if code != http.StatusOK {
			return "unexpected-status"
		}
		return ""
	}
	rep, err := load.Run(context.Background(), load.Options{URL: *url, Conns: *conns, Duration: *duration,
		Next: func(conn, i int) load.Request {
			return load.Request{Path: *path, Body: list[(conn*7+i)%len(list)], Check: check}
		}})
	if err != nil {
		log.Fatal(err)
	}
	if err := json.NewEncoder(os.Stdout).Encode(rep); err != nil {
		log.Fatal(err)
	}
}

func readLines(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			out = append(out, bytes.Clone(line))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, os.ErrNotExist
	}
	return out, nil
}
