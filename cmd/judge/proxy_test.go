package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/proxy/proxytest"
)

func TestProxyBadInput(t *testing.T) {
	t.Parallel()
	for _, up := range []string{"", "ftp://host/v1", "http://user:pw@host/v1", "not a url"} {
		params := newProxyParams()
		params.upstream = up
		params.addr = "127.0.0.1:0"
		if err := runProxy(context.Background(), params, io.Discard); exitCode(err) != exitBadInput {
			t.Errorf("--upstream %q: exit %d (%v), want %d", up, exitCode(err), err, exitBadInput)
		}
	}
}

// judge proxy serves on a free port, annotates an answer with judge's
// report and shuts down cleanly when its context ends.
func TestProxyServes(t *testing.T) {
	t.Parallel()
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: `{"n": "one"}`}}})
	params := newProxyParams()
	params.upstream = up.URL + "/v1"
	params.addr = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runProxy(ctx, params, pw)
		pw.Close()
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var rec struct{ URL string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.URL != "" {
				select {
				case urls <- rec.URL:
				default:
				}
			}
		}
	}()
	var base string
	select {
	case base = <-urls:
	case err := <-done:
		t.Fatalf("judge proxy ended before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("judge proxy logged no address within 20s")
	}
	body := `{"model":"m","messages":[{"role":"user","content":"n?"}],"response_format":{"type":"json_schema","json_schema":{"name":"n","schema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}}}`
	resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var got struct {
		Judge struct {
			Mode  string
			Valid bool
		}
	}
	if resp.StatusCode != 200 || json.Unmarshal(b, &got) != nil || got.Judge.Mode != "annotate" || got.Judge.Valid {
		t.Errorf("answer %d %s, want it annotated as invalid", resp.StatusCode, b)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}
