package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// inlineToolOutput is a realistic tool output: a page of search results
// as an MCP tool returns it, with a schema and two rules.
const inlineToolOutput = `{
  "output": {
    "total_count": 3,
    "incomplete_results": false,
    "items": [
      {"number": 4711, "title": "Server drops requests under load", "state": "open", "user": {"login": "ada"}, "labels": ["bug", "p1"], "comments": 12, "created_at": "2025-03-02T10:15:00Z"},
      {"number": 4702, "title": "Document the metrics endpoint", "state": "closed", "user": {"login": "grace"}, "labels": ["docs"], "comments": 3, "created_at": "2025-02-27T08:01:00Z"},
      {"number": 4698, "title": "Support draft 2020-12 $dynamicRef", "state": "open", "user": {"login": "alan"}, "labels": ["enhancement"], "comments": 0, "created_at": "2025-02-25T17:45:00Z"}
    ]
  },
  "expected_schema": {
    "type": "object",
    "required": ["total_count", "incomplete_results", "items"],
    "properties": {
      "total_count": {"type": "integer", "minimum": 0},
      "incomplete_results": {"type": "boolean"},
      "items": {
        "type": "array",
        "items": {
          "type": "object",
          "required": ["number", "title", "state", "user"],
          "properties": {
            "number": {"type": "integer"},
            "title": {"type": "string", "minLength": 1},
            "state": {"enum": ["open", "closed"]},
            "user": {"type": "object", "required": ["login"], "properties": {"login": {"type": "string"}}},
            "labels": {"type": "array", "items": {"type": "string"}},
            "comments": {"type": "integer", "minimum": 0},
            "created_at": {"type": "string", "format": "date-time"}
          }
        }
      }
    }
  },
  "acceptance_criteria": [
    {"description": "The count matches the items", "rule": "output.total_count == size(output.items)"},
    {"description": "Every item has a title", "rule": "output.items.all(i, size(i.title) > 0)"}
  ]
}`

// BenchmarkValidateHTTP measures POST /validate end to end over loopback:
// encoding, the HTTP round trip, decoding, the schema and criteria layers
// and the answer.
func BenchmarkValidateHTTP(b *testing.B) {
	_, ts := newTestServer(b, Options{})
	client := ts.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64

	run := func(b *testing.B, bodies []string) {
		b.Helper()
		var size int
		for _, body := range bodies {
			size += len(body)
		}
		b.SetBytes(int64(size / len(bodies)))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			body := bodies[i%len(bodies)]
			i++
			resp, err := client.Post(ts.URL+"/validate", "application/json", strings.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	}
	b.Run("inline", func(b *testing.B) { run(b, []string{inlineToolOutput}) })

	b.Run("github_tools", func(b *testing.B) {
		var bodies []string
		for _, r := range corpusBodies(b) {
			bodies = append(bodies, string(r))
		}
		run(b, bodies)
	})
	b.Run("large", func(b *testing.B) {
		c := sharedtest.LoadBenchCorpus(b)
		r, err := json.Marshal(map[string]any{"output": json.RawMessage(c.Large.Valid), "expected_schema": c.Large.Schema})
		if err != nil {
			b.Fatal(err)
		}
		run(b, []string{string(r)})
	})
}

// corpusBodies is a POST /validate body for each of the shared bench
// corpus's 234 tool-argument documents, valid and invalid in turn.
func corpusBodies(b testing.TB) [][]byte {
	var bodies [][]byte
	for _, c := range sharedtest.LoadBenchCorpus(b).Cases {
		for _, doc := range []string{c.Valid, c.Invalid} {
			r, err := json.Marshal(map[string]any{"output": json.RawMessage(doc), "expected_schema": c.Schema})
			if err != nil {
				b.Fatal(err)
			}
			bodies = append(bodies, r)
		}
	}
	return bodies
}

// BenchmarkValidateHandler measures POST /validate in process, without
// the network: the server's handler with its middleware (request id,
// metrics, a JSON access log as judge serve writes it, recovery, auth,
// the mux), the body read, admission, decode, the engine and the
// answer's encoding, over the 234 tool-argument documents of the shared
// corpus, valid and invalid in turn.
func BenchmarkValidateHandler(b *testing.B) {
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	s := New(newEngine(b), Options{Logger: log})
	h := s.Handler()
	bodies := corpusBodies(b)
	for _, sub := range []struct {
		name string
		pick func(i int) []byte
	}{
		{"valid", func(i int) []byte { return bodies[(2*i)%len(bodies)] }},
		{"mixed", func(i int) []byte { return bodies[i%len(bodies)] }},
	} {
		b.Run(sub.name, func(b *testing.B) {
			b.ReportAllocs()
			rd := bytes.NewReader(nil)
			i := 0
			cpu0 := cpuTime(b)
			for b.Loop() {
				rd.Reset(sub.pick(i))
				i++
				req := httptest.NewRequest(http.MethodPost, "/validate", rd)
				req.Header.Set("Content-Type", "application/json")
				w := &discardWriter{h: http.Header{}}
				h.ServeHTTP(w, req)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
			// The process's CPU time beside the wall time (the garbage
			// collector's included): on a shared machine, waiting for a
			// processor counts in the one only.
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(i), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// discardWriter is a ResponseWriter that keeps only the status.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}
