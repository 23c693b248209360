package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/server/api"
)

const streamSchema = `{"type": "object", "additionalProperties": false, "required": ["owner"],
	"properties": {"owner": {"type": "string"}, "repo": {"type": "string"}}}`

// serveStream serves a Server with the schema "tool.json" on a loopback
// listener, and returns its base URL and engine.
func serveStream(t *testing.T, opts Options) (string, *judge.Engine) {
	t.Helper()
	sch, err := jsonvalue.Decode([]byte(streamSchema), 0)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, judge.WithSchemas(map[string]any{"tool.json": sch}))
	s := New(e, opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String(), e
}

// streamCall posts a body written through a pipe; the answer arrives on
// the returned channel while the caller still writes.
func streamCall(t *testing.T, base, schema string) (*io.PipeWriter, <-chan *http.Response) {
	t.Helper()
	pr, pw := io.Pipe()
	req, err := http.NewRequest(http.MethodPost, base+"/v1/validate/stream?schema="+url.QueryEscape(schema), pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	// A connection of its own: a pooled one the server is closing (after
	// a 413 or a 408) would fail the request, whose piped body cannot be
	// sent again.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resc := make(chan *http.Response, 1)
	go func() {
		res, err := client.Do(req)
		if err != nil {
			t.Errorf("POST: %v", err)
			pr.CloseWithError(err)
			close(resc)
			return
		}
		resc <- res
	}()
	t.Cleanup(func() { pw.Close() })
	return pw, resc
}

func readLine(t *testing.T, r *bufio.Reader) streamLine {
	t.Helper()
	b, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading a line: %v (%q)", err, b)
	}
	var l streamLine
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatalf("line %s: %v", b, err)
	}
	return l
}

// TestValidateStreamHTTP streams an output in chunks through an io.Pipe
// to a real server on loopback and reads the first event before the body
// ends: a server that waited for the whole body would block the test.
func TestValidateStreamHTTP(t *testing.T) {
	t.Parallel()
	base, e := serveStream(t, Options{})
	pw, resc := streamCall(t, base, "tool.json")
	if _, err := io.WriteString(pw, `{"owner": 12`); err != nil {
		t.Fatal(err)
	}
	res, ok := <-resc
	if !ok {
		t.FailNow()
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != MediaTypeNDJSON {
		t.Fatalf("status %d, Content-Type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	r := bufio.NewReader(res.Body)
	first := readLine(t, r)
	if first.At != 11 || first.Final || first.Result == nil || first.Result.Valid || first.Result.Issues[0].Location != "owner" {
		t.Fatalf("first line %+v", first)
	}
	// The rest of the body, after the first event was read.
	rest := `3, "repo": "r", "extra": true}`
	if _, err := io.WriteString(pw, rest); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	second := readLine(t, r)
	if second.Final || second.Result.Issues[0].Rule != "schema.additionalProperties" {
		t.Fatalf("second line %+v", second)
	}
	final := readLine(t, r)
	doc := `{"owner": 12` + rest
	if !final.Final || final.At != int64(len(doc)) {
		t.Fatalf("final line %+v", final)
	}
	want, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(doc), ExpectedSchema: json.RawMessage(`{"$ref": "tool.json"}`)})
	if err != nil {
		t.Fatal(err)
	}
	final.Result.Metadata.DurationMS, want.Metadata.DurationMS = 0, 0
	if !reflect.DeepEqual(final.Result, want) {
		t.Fatalf("final result %+v, Validate %+v", final.Result, want)
	}
	if b, _ := io.ReadAll(r); len(b) > 0 {
		t.Fatalf("after the final line: %q", b)
	}
}

// TestValidateStreamHTTPErrors checks the problems: an unknown schema, a
// body idle past the timeout, a body over the limit, and malformed JSON
// after the answer has begun.
func TestValidateStreamHTTPErrors(t *testing.T) {
	t.Parallel()
	base, _ := serveStream(t, Options{StreamIdleTimeout: 300 * time.Millisecond, MaxBodyBytes: 64})

	t.Run("unknown schema", func(t *testing.T) {
		pw, resc := streamCall(t, base, "nope.json")
		go func() { _, _ = io.WriteString(pw, `{}`); pw.Close() }()
		res := <-resc
		defer res.Body.Close()
		checkStreamProblem(t, res, http.StatusBadRequest)
	})
	t.Run("idle", func(t *testing.T) {
		pw, resc := streamCall(t, base, "tool.json")
		if _, err := io.WriteString(pw, `{"owner": "a"`); err != nil {
			t.Fatal(err)
		}
		// Nothing more is written: the server's idle timeout answers.
		res := <-resc
		defer res.Body.Close()
		checkStreamProblem(t, res, http.StatusRequestTimeout)
	})
	t.Run("too large", func(t *testing.T) {
		pw, resc := streamCall(t, base, "tool.json")
		go func() {
			_, _ = io.WriteString(pw, `{"owner": "`+strings.Repeat("a", 40))
			_, _ = io.WriteString(pw, strings.Repeat("a", 40)+`"}`)
			pw.Close()
		}()
		res := <-resc
		defer res.Body.Close()
		checkStreamProblem(t, res, http.StatusRequestEntityTooLarge)
	})
	t.Run("malformed after an event", func(t *testing.T) {
		pw, resc := streamCall(t, base, "tool.json")
		if _, err := io.WriteString(pw, `{"owner": true`); err != nil {
			t.Fatal(err)
		}
		res := <-resc
		defer res.Body.Close()
		r := bufio.NewReader(res.Body)
		if l := readLine(t, r); l.Final || l.Result == nil || l.Result.Valid {
			t.Fatalf("first line %+v", l)
		}
		go func() { _, _ = io.WriteString(pw, `, ,}`); pw.Close() }()
		l := readLine(t, r)
		if !l.Final || l.Problem == nil || l.Problem.Status != http.StatusBadRequest || l.Problem.Code != api.CodeInvalidRequest ||
			!strings.Contains(l.Problem.Detail, "looking for beginning of object key string") {
			t.Fatalf("last line %+v %+v", l, l.Problem)
		}
	})
}

func checkStreamProblem(t *testing.T, res *http.Response, status int) {
	t.Helper()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkProblem(res.Header, body, status); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
}

// TestValidateStreamLayerRuns: a streamed validation counts its schema
// layer run in /metrics (and so in the dashboard) as POST /validate does,
// whether the stream decided the output valid itself or Validate ran.
func TestValidateStreamLayerRuns(t *testing.T) {
	t.Parallel()
	base, _ := serveStream(t, Options{})
	for _, doc := range []string{`{"owner": "o", "repo": "r"}`, `{"repo": 1}`} {
		pw, resc := streamCall(t, base, "tool.json")
		if _, err := io.WriteString(pw, doc); err != nil {
			t.Fatal(err)
		}
		pw.Close()
		res, ok := <-resc
		if !ok {
			t.FailNow()
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || !strings.Contains(string(b), `"final":true`) {
			t.Fatalf("answer %q, %v", b, err)
		}
	}
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	mfs := scrape(t, response{status: res.StatusCode, header: res.Header, body: body})
	if m := find(mfs, MetricLayerRuns, map[string]string{"layer": "schema", "failed": "false"}); m == nil || m.GetCounter().GetValue() != 2 {
		t.Errorf("%s{layer=schema} = %v, want 2", MetricLayerRuns, m.GetCounter())
	}
	if m := find(mfs, MetricLayerIssues, map[string]string{"layer": "schema", "severity": "error"}); m == nil || m.GetCounter().GetValue() < 1 {
		t.Errorf("%s{layer=schema,severity=error} = %v, want the invalid output's", MetricLayerIssues, m.GetCounter())
	}
}
