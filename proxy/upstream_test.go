package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// This file is the only fake of the tests: the model, a paid service,
// played by a loopback HTTP server that speaks OpenAI's chat completions
// protocol with the chunk shapes OpenAI sends (role delta first with
// "content": "" or null and "refusal": null, "logprobs": null,
// tool_calls deltas with index, id, type and function.name and empty
// arguments, then argument fragments with the index only, one choice per
// chunk, finish_reason in a chunk of its own with an empty delta, "usage":
// null on every chunk and a last chunk with empty choices and the usage
// when stream_options.include_usage is set, then data: [DONE]).

// toolCall is one call a scripted choice makes.
type toolCall struct{ name, args string }

// choiceScript is what one choice of the scripted model writes: content,
// or tool calls.
type choiceScript struct {
	content string
	calls   []toolCall
}

// script is the scripted model's answer.
type script struct {
	choices []choiceScript
	// status and body, when status is not 0, are an error answer.
	status int
	body   string
	// raw, when not empty, is the whole SSE body sent as is.
	raw string
	// holdAfter, when > 0, makes the model wait, after that many
	// chunks, until its request is cancelled (as a proxy in the stop mode
	// must do), or 20 s (then it goes on, and the test fails on what it
	// checks).
	holdAfter int
	// fragment is how many bytes each content or arguments delta carries
	// (about a token); 0 means 4.
	fragment int
}

// upstream is the fake model server and what it saw.
type upstream struct {
	*httptest.Server
	mu        sync.Mutex
	auth      []string
	bodies    [][]byte
	cancelled chan struct{}
	sent      int // chunks written in the last answer
}

func newUpstream(t testing.TB, sc script) *upstream {
	t.Helper()
	return newUpstreamFunc(t, func([]byte) script { return sc })
}

// newUpstreamFunc serves, for each request, the script pick makes of its
// body.
func newUpstreamFunc(t testing.TB, pick func(body []byte) script) *upstream {
	t.Helper()
	u := &upstream{cancelled: make(chan struct{}, 16)}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.auth = append(u.auth, r.Header.Get("Authorization"))
		u.bodies = append(u.bodies, body)
		u.mu.Unlock()
		sc := pick(body)
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if sc.status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(sc.status)
			_, _ = io.WriteString(w, sc.body)
			return
		}
		var req struct {
			Stream        bool `json:"stream"`
			StreamOptions *struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		_ = json.Unmarshal(body, &req)
		if sc.raw != "" {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, sc.raw)
			return
		}
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(completionOf(sc))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		usage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
		n := 0
		for _, c := range chunksOf(sc, usage) {
			if sc.holdAfter > 0 && n == sc.holdAfter {
				select {
				case <-r.Context().Done():
					u.cancelled <- struct{}{}
					return
				case <-time.After(20 * time.Second):
				}
			}
			if _, err := fmt.Fprintf(w, "data: %s\n\n", c); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
			n++
			u.mu.Lock()
			u.sent = n
			u.mu.Unlock()
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(u.Close)
	return u
}

const (
	fakeID      = "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT"
	fakeModel   = "gpt-4o-2024-08-06"
	fakeCreated = 1741569952
)

// split cuts s into fragments of n bytes, never inside a UTF-8 sequence.
func split(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		k := min(n, len(s))
		for k < len(s) && s[k]&0xC0 == 0x80 {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

func chunkJSON(choices []map[string]any, usage bool, u any) string {
	c := map[string]any{"id": fakeID, "object": "chat.completion.chunk", "created": fakeCreated,
		"model": fakeModel, "service_tier": "default", "system_fingerprint": "fp_f9f4fb6dbf", "choices": choices}
	if usage {
		c["usage"] = u
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// chunksOf renders sc as the chunks OpenAI would stream, choices
// interleaved one chunk each.
func chunksOf(sc script, usage bool) []string {
	frag := sc.fragment
	if frag == 0 {
		frag = 4
	}
	per := make([][]map[string]any, len(sc.choices))
	completion := 0
	for i, ch := range sc.choices {
		var ds []map[string]any
		choice := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"index": i, "delta": delta, "logprobs": nil, "finish_reason": finish}
		}
		if len(ch.calls) == 0 {
			ds = append(ds, choice(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil))
			for _, f := range split(ch.content, frag) {
				ds = append(ds, choice(map[string]any{"content": f}, nil))
				completion++
			}
			ds = append(ds, choice(map[string]any{}, "stop"))
		} else {
			for k, tc := range ch.calls {
				head := map[string]any{"index": k, "id": fmt.Sprintf("call_%d_%d_x7Kq", i, k), "type": "function",
					"function": map[string]any{"name": tc.name, "arguments": ""}}
				if k == 0 {
					ds = append(ds, choice(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{head}, "refusal": nil}, nil))
				} else {
					ds = append(ds, choice(map[string]any{"tool_calls": []any{head}}, nil))
				}
				for _, f := range split(tc.args, frag) {
					ds = append(ds, choice(map[string]any{"tool_calls": []any{map[string]any{"index": k, "function": map[string]any{"arguments": f}}}}, nil))
					completion++
				}
			}
			ds = append(ds, choice(map[string]any{}, "tool_calls"))
		}
		per[i] = ds
	}
	var out []string
	for k := 0; ; k++ {
		more := false
		for i := range per {
			if k < len(per[i]) {
				more = true
				out = append(out, chunkJSON([]map[string]any{per[i][k]}, usage, nil))
			}
		}
		if !more {
			break
		}
	}
	if usage {
		out = append(out, chunkJSON([]map[string]any{}, true, map[string]any{
			"prompt_tokens": 120, "completion_tokens": completion, "total_tokens": 120 + completion,
			"prompt_tokens_details":     map[string]any{"cached_tokens": 0, "audio_tokens": 0},
			"completion_tokens_details": map[string]any{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
		}))
	}
	return out
}

// completionOf renders sc as an answer that is not streamed.
func completionOf(sc script) []byte {
	var choices []any
	completion := 0
	for i, ch := range sc.choices {
		msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil, "annotations": []any{}}
		finish := "stop"
		if len(ch.calls) == 0 {
			msg["content"] = ch.content
			completion += len(split(ch.content, 4))
		} else {
			var calls []any
			for k, tc := range ch.calls {
				calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d_x7Kq", i, k), "type": "function",
					"function": map[string]any{"name": tc.name, "arguments": tc.args}})
				completion += len(split(tc.args, 4))
			}
			msg["tool_calls"] = calls
			finish = "tool_calls"
		}
		choices = append(choices, map[string]any{"index": i, "message": msg, "logprobs": nil, "finish_reason": finish})
	}
	b, _ := json.Marshal(map[string]any{"id": fakeID, "object": "chat.completion", "created": fakeCreated, "model": fakeModel,
		"choices": choices, "usage": map[string]any{"prompt_tokens": 120, "completion_tokens": completion, "total_tokens": 120 + completion},
		"service_tier": "default", "system_fingerprint": "fp_f9f4fb6dbf"})
	return b
}

// startProxy serves a proxy in mode in front of up on loopback.
func startProxy(t testing.TB, up string, mode Mode, opts ...func(*Options)) (*Proxy, string) {
	t.Helper()
	o := Options{Upstream: up + "/v1", Mode: mode}
	for _, f := range opts {
		f(&o)
	}
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(p.Handler())
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.Close(ctx)
	})
	return p, ts.URL
}

// authSeen returns the Authorization headers the upstream received.
func (u *upstream) authSeen() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.auth...)
}
