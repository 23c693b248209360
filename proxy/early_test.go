package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/result"
)

// markerCheckpoint stands in for the streaming validator at the
// Checkpoint seam: its watches report a violation from Feed as soon as
// the fragments so far contain marker, and otherwise check the document
// whole at its end like WholeDocuments. It tests what the proxy does
// with an early verdict, not how one is found.
type markerCheckpoint struct {
	inner  Checkpoint
	marker string
}

func (m markerCheckpoint) Content(ctx context.Context) Watch {
	if w := m.inner.Content(ctx); w != nil {
		return &markerWatch{inner: w, marker: m.marker}
	}
	return nil
}

func (m markerCheckpoint) Arguments(ctx context.Context, tool string) Watch {
	if w := m.inner.Arguments(ctx, tool); w != nil {
		return &markerWatch{inner: w, marker: m.marker}
	}
	return nil
}

type markerWatch struct {
	inner  Watch
	marker string
	seen   strings.Builder
}

func (w *markerWatch) Feed(fragment []byte) *Verdict {
	w.seen.Write(fragment)
	w.inner.Feed(fragment)
	if !strings.Contains(w.seen.String(), w.marker) {
		return nil
	}
	is := result.Issue{Severity: result.Error, Type: result.ConstraintViolation, Location: "cabin", Rule: "test.marker",
		Message: "The value 'first' is not one of the allowed values", Suggestion: "Use economy, basic_economy or business"}
	return &Verdict{Result: result.NewBuilder().Ran("toolcall").Add(is).Build(), RepairText: "judge stopped the call: cabin 'first' is not allowed"}
}

func (w *markerWatch) End(ctx context.Context) (*Verdict, error) { return w.inner.End(ctx) }

// An early verdict (a Watch that reports from Feed) stops the answer in
// the middle of a call's arguments: the upstream is cancelled there, the
// verdict says how far it had read, and the call never completes.
func TestEarlyVerdictStopsMidArguments(t *testing.T) {
	t.Parallel()
	args := `{"user_id": "sara_doe_496", "origin": "SFO", "destination": "JFK", "flight_type": "one_way", "cabin": "first", "flights": [{"flight_number": "HAT001", "date": "2024-05-01"}], "payment_id": "credit_card_7815826", "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}`
	frags := proxytest.Split(args, 4)
	k, sofar := 0, ""
	for i, f := range frags {
		sofar += f
		if strings.Contains(sofar, `"first"`) {
			k = i
			break
		}
	}
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Calls: []proxytest.ToolCall{{Name: "book_reservation", Args: args}}}},
		Fragment: 4, HoldAfter: 1 + k + 1})
	p, err := New(Options{Upstream: up.URL + "/v1", Mode: Stop, Checkpoint: func(e *judge.Engine, c Contracts) Checkpoint {
		return markerCheckpoint{inner: WholeDocuments(e, c), marker: `"first"`}
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(p.Handler())
	defer ts.Close()
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"book"}],"tools":[{"type":"function","function":{"name":"book_reservation","parameters":{"type":"object","properties":{"cabin":{"type":"string","enum":["basic_economy","economy","business"]}}}}}]}`
	resp, err := http.Post(ts.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var (
		report *Report
		finish string
		done   bool
		read   string
	)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			break
		}
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason string `json:"finish_reason"`
			}
			Judge *Report
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("chunk %s: %v", data, err)
		}
		for _, ch := range c.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				read += tc.Function.Arguments
			}
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
		if c.Judge != nil {
			report = c.Judge
		}
	}
	select {
	case <-up.Cancelled:
	case <-time.After(15 * time.Second):
		t.Fatal("the upstream was not cancelled mid-arguments")
	}
	if !done || finish != FinishStopped || report == nil || !report.Stopped || len(report.Checks) != 1 {
		t.Fatalf("done=%v finish=%q report=%+v", done, finish, report)
	}
	v := report.Checks[0]
	if !v.Early || v.At != len(sofar) || v.At >= len(args) || v.ToolCall == nil || v.ToolCall.Name != "book_reservation" {
		t.Errorf("verdict early=%v at=%d (want %d of %d) call=%+v", v.Early, v.At, len(sofar), len(args), v.ToolCall)
	}
	if read == sofar {
		t.Errorf("the fragment that made the verdict certain was forwarded: %q", read)
	}
	if !strings.HasPrefix(sofar, read) || report.RepairText == "" {
		t.Errorf("forwarded %q, repair %q", read, report.RepairText)
	}
}

// The content's watch is the streaming validator: a violation of the
// response schema stops the answer at the fragment that makes it certain,
// long before the content ends.
func TestContentEarlyVerdict(t *testing.T) {
	t.Parallel()
	content := `{"city": "Oslo", "days": "three", "notes": "` + strings.Repeat("a long answer the model need not finish ", 20) + `"}`
	frags := proxytest.Split(content, 4)
	bad := strings.Index(content, `"three"`) // a string where the schema wants an integer: certain at its quote
	k, sofar := 0, ""
	for i, f := range frags {
		sofar += f
		if len(sofar) > bad {
			k = i
			break
		}
	}
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: content}}, Fragment: 4, HoldAfter: 1 + k + 1})
	p, err := New(Options{Upstream: up.URL + "/v1", Mode: Stop})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(p.Handler())
	defer ts.Close()
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"plan"}],"response_format":{"type":"json_schema","json_schema":{"name":"plan","schema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}}}}`
	resp, err := http.Post(ts.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var report *Report
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c struct{ Judge *Report }
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("chunk %s: %v", data, err)
		}
		if c.Judge != nil {
			report = c.Judge
		}
	}
	select {
	case <-up.Cancelled:
	case <-time.After(15 * time.Second):
		t.Fatal("the upstream was not cancelled mid-content")
	}
	if report == nil || !report.Stopped || len(report.Checks) != 1 {
		t.Fatalf("report %+v", report)
	}
	v := report.Checks[0]
	if !v.Early || v.Kind != "content" || v.At != len(sofar) || v.Result == nil || v.Result.Valid ||
		v.Result.Issues[0].Type != result.InvalidType || v.Result.Issues[0].Location != "days" {
		t.Fatalf("verdict %+v, issues %+v", v, v.Result)
	}
}
