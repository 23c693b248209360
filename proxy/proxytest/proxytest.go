// Package proxytest is the fake model of judge proxy's tests, the only
// fake they use (the model is a paid service): a loopback HTTP server that
// speaks OpenAI's chat completions protocol with the chunk shapes OpenAI
// sends — the role delta first with "content": "" (or null for tool calls)
// and "refusal": null, "logprobs": null, tool_calls deltas with index, id,
// type and function.name and empty arguments, then argument fragments
// with the index only, one choice per chunk, finish_reason in a chunk of
// its own with an empty delta, "usage": null on every chunk and a last
// chunk with empty choices and the usage when stream_options.include_usage
// is set, then data: [DONE] — and answers that are not streamed.
package proxytest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// ToolCall is one call a scripted choice makes: the tool's name and its
// arguments as JSON text.
type ToolCall struct{ Name, Args string }

// Choice is what one choice of the scripted model writes: content, or
// tool calls.
type Choice struct {
	Content string
	Calls   []ToolCall
}

// Script is the scripted model's answer.
type Script struct {
	// Choices are the answer's choices.
	Choices []Choice
	// Status and Body, when Status is not 0, are an error answer.
	Status int
	Body   string
	// Raw, when not empty, is the whole SSE body, sent as it is.
	Raw string
	// HoldAfter, when > 0, makes the model wait, after that many chunks,
	// until its request is cancelled (as a proxy in the stop mode must
	// do; Cancelled then receives), or 20 s (then it goes on, and the
	// test fails on what it checks).
	HoldAfter int
	// Fragment is how many bytes each content or arguments delta carries
	// (about a token); 0 means 4.
	Fragment int
}

// Upstream is the fake model server and what it saw.
type Upstream struct {
	*httptest.Server
	// Cancelled receives once for each stream whose request was
	// cancelled while the model held it (see Script.HoldAfter).
	Cancelled chan struct{}
	mu        sync.Mutex
	auth      []string
}

// Model, ID and Created are the model, id and creation time of every
// answer.
const (
	ID      = "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT"
	Model   = "gpt-4o-2024-08-06"
	Created = 1741569952
)

// New serves sc for every request until t ends.
func New(t testing.TB, sc Script) *Upstream {
	t.Helper()
	return NewFunc(t, func([]byte) Script { return sc })
}

// NewFunc serves, for each request, the Script pick makes of its
// body.
func NewFunc(t testing.TB, pick func(body []byte) Script) *Upstream {
	t.Helper()
	u := &Upstream{Cancelled: make(chan struct{}, 16)}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.auth = append(u.auth, r.Header.Get("Authorization"))
		u.mu.Unlock()
		sc := pick(body)
		if (r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/v1/responses") || r.Method != http.MethodPost {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if sc.Status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(sc.Status)
			_, _ = io.WriteString(w, sc.Body)
			return
		}
		if r.URL.Path == "/v1/responses" {
			u.serveResponses(w, r, body, sc)
			return
		}
		var req struct {
			Stream        bool `json:"stream"`
			StreamOptions *struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		_ = json.Unmarshal(body, &req)
		if sc.Raw != "" {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, sc.Raw)
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
		for _, c := range ChunksOf(sc, usage) {
			if sc.HoldAfter > 0 && n == sc.HoldAfter {
				select {
				case <-r.Context().Done():
					u.Cancelled <- struct{}{}
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
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(u.Close)
	return u
}

// Split cuts s into fragments of n bytes, never inside a UTF-8 sequence.
func Split(s string, n int) []string {
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

// ChunkJSON renders one chunk of choices, with "usage": u when usage is
// set (null on every chunk but the last, as OpenAI sends it).
func ChunkJSON(choices []map[string]any, usage bool, u any) string {
	c := map[string]any{"id": ID, "object": "chat.completion.chunk", "created": Created,
		"model": Model, "service_tier": "default", "system_fingerprint": "fp_f9f4fb6dbf", "choices": choices}
	if usage {
		c["usage"] = u
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// ChunksOf renders sc as the chunks OpenAI would stream, choices
// interleaved one chunk each.
func ChunksOf(sc Script, usage bool) []string {
	frag := sc.Fragment
	if frag == 0 {
		frag = 4
	}
	per := make([][]map[string]any, len(sc.Choices))
	completion := 0
	for i, ch := range sc.Choices {
		var ds []map[string]any
		choice := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"index": i, "delta": delta, "logprobs": nil, "finish_reason": finish}
		}
		if len(ch.Calls) == 0 {
			ds = append(ds, choice(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil))
			for _, f := range Split(ch.Content, frag) {
				ds = append(ds, choice(map[string]any{"content": f}, nil))
				completion++
			}
			ds = append(ds, choice(map[string]any{}, "stop"))
		} else {
			for k, tc := range ch.Calls {
				head := map[string]any{"index": k, "id": fmt.Sprintf("call_%d_%d_x7Kq", i, k), "type": "function",
					"function": map[string]any{"name": tc.Name, "arguments": ""}}
				if k == 0 {
					ds = append(ds, choice(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{head}, "refusal": nil}, nil))
				} else {
					ds = append(ds, choice(map[string]any{"tool_calls": []any{head}}, nil))
				}
				for _, f := range Split(tc.Args, frag) {
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
				out = append(out, ChunkJSON([]map[string]any{per[i][k]}, usage, nil))
			}
		}
		if !more {
			break
		}
	}
	if usage {
		out = append(out, ChunkJSON([]map[string]any{}, true, map[string]any{
			"prompt_tokens": 120, "completion_tokens": completion, "total_tokens": 120 + completion,
			"prompt_tokens_details":     map[string]any{"cached_tokens": 0, "audio_tokens": 0},
			"completion_tokens_details": map[string]any{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
		}))
	}
	return out
}

// completionOf renders sc as an answer that is not streamed.
func completionOf(sc Script) []byte {
	var choices []any
	completion := 0
	for i, ch := range sc.Choices {
		msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil, "annotations": []any{}}
		finish := "stop"
		if len(ch.Calls) == 0 {
			msg["content"] = ch.Content
			completion += len(Split(ch.Content, 4))
		} else {
			var calls []any
			for k, tc := range ch.Calls {
				calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d_x7Kq", i, k), "type": "function",
					"function": map[string]any{"name": tc.Name, "arguments": tc.Args}})
				completion += len(Split(tc.Args, 4))
			}
			msg["tool_calls"] = calls
			finish = "tool_calls"
		}
		choices = append(choices, map[string]any{"index": i, "message": msg, "logprobs": nil, "finish_reason": finish})
	}
	b, _ := json.Marshal(map[string]any{"id": ID, "object": "chat.completion", "created": Created, "model": Model,
		"choices": choices, "usage": map[string]any{"prompt_tokens": 120, "completion_tokens": completion, "total_tokens": 120 + completion},
		"service_tier": "default", "system_fingerprint": "fp_f9f4fb6dbf"})
	return b
}

// AuthSeen returns the Authorization headers the upstream received.
func (u *Upstream) AuthSeen() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.auth...)
}
