package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// askBatches starts at most limit batches at once: each ask blocks until
// the test lets it go, one at a time, so that without the bound every
// batch would be under way together.
func TestAskBatchesBounded(t *testing.T) {
	t.Parallel()
	const n, limit = 12, 3
	items := make([]int, n)
	batches := make([][]int, n)
	for i := range batches {
		batches[i] = []int{i}
	}
	started := make(chan struct{}, n)
	release := make(chan struct{})
	var mu sync.Mutex
	active, most := 0, 0
	done := make(chan Usage)
	go func() {
		done <- askBatches(items, batches, limit, func(b []int) ([]int, Usage, error) {
			mu.Lock()
			active++
			most = max(most, active)
			mu.Unlock()
			started <- struct{}{}
			<-release
			mu.Lock()
			active--
			mu.Unlock()
			return b, Usage{PromptTokens: 1}, nil
		}, func(int, *int, error) {})
	}()
	for range n {
		<-started
		release <- struct{}{}
	}
	if u := <-done; u.PromptTokens != n {
		t.Errorf("usage %d, want %d", u.PromptTokens, n)
	}
	if most > limit || most == 0 {
		t.Errorf("%d batches were under way at once, want at most %d", most, limit)
	}
}

// An answer larger than MaxAnswerBytes is a *CallError wrapping
// ErrAnswerTooLarge, read through the limit from a loopback server that
// speaks the OpenAI protocol.
func TestAnswerSizeLimit(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id": "c1", "object": "chat.completion", "created": 1, "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
			"message": {"role": "assistant", "content": "{\"a\": \"` + big + `\"}"}}], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}`))
	}))
	defer srv.Close()
	for _, tt := range []struct {
		limit int64
		ok    bool
	}{{limit: 1 << 10}, {limit: 1 << 20, ok: true}} {
		c, err := New(Config{BaseURL: srv.URL + "/v1", Model: "m", MaxAnswerBytes: tt.limit, MaxRetries: -1, CacheEntries: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.call(context.Background(), []Message{{Role: "user", Content: "q"}},
			MustSchema("a", []byte(`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}`)))
		var ce *CallError
		switch {
		case tt.ok && err != nil:
			t.Errorf("limit %d: %v", tt.limit, err)
		case !tt.ok && (!errors.As(err, &ce) || !errors.Is(err, ErrAnswerTooLarge)):
			t.Errorf("limit %d: err = %v, want a *CallError wrapping ErrAnswerTooLarge", tt.limit, err)
		}
	}
}
