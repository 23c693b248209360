package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
)

// holdingHandler is a slog handler whose access-log lines wait until
// release is closed, counting them in lines once let through.
type holdingHandler struct {
	release <-chan struct{}
	lines   chan<- string
}

func (h holdingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h holdingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h holdingHandler) WithGroup(string) slog.Handler            { return h }
func (h holdingHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == AccessLogMessage {
		<-h.release
		select {
		case h.lines <- r.Message:
		default:
		}
	}
	return nil
}

// TestValidateAnswersBeforeAccessLog: POST /validate's answer reaches the
// client whole, with its length and not chunked, while the request's
// access-log line (written after the handler returns) is held; the line
// and the validation's metrics still follow once it is let go.
func TestValidateAnswersBeforeAccessLog(t *testing.T) {
	for _, tc := range []struct {
		name, output string
		valid        bool
	}{
		{"valid", `{"n": 1}`, true},
		{"invalid", `{"n": "one"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release, lines := make(chan struct{}), make(chan string, 1)
			_, ts := newTestServer(t, Options{Logger: slog.New(holdingHandler{release, lines})})
			var once sync.Once
			free := func() { once.Do(func() { close(release) }) }
			defer free() // before ts.Close (a cleanup), whatever fails
			body := `{"output": ` + tc.output + `, "expected_schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}`
			type answer struct {
				resp *http.Response
				body []byte
				err  error
			}
			got := make(chan answer, 1)
			go func() {
				resp, err := ts.Client().Post(ts.URL+"/validate", "application/json", strings.NewReader(body))
				if err != nil {
					got <- answer{err: err}
					return
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				got <- answer{resp, b, err}
			}()
			var a answer
			select {
			case a = <-got:
			case <-time.After(30 * time.Second):
				t.Fatal("no answer while the access-log line is held: the answer waits for the bookkeeping")
			}
			if a.err != nil {
				t.Fatal(a.err)
			}
			if a.resp.StatusCode != http.StatusOK || a.resp.ContentLength != int64(len(a.body)) || len(a.resp.TransferEncoding) != 0 {
				t.Fatalf("status %d, Content-Length %d for %d bytes, Transfer-Encoding %v", a.resp.StatusCode, a.resp.ContentLength, len(a.body), a.resp.TransferEncoding)
			}
			var res result.ValidationResult
			if err := json.Unmarshal(a.body, &res); err != nil || res.Valid != tc.valid || res.Valid == (len(res.Issues) > 0) {
				t.Fatalf("answer %s: %v", a.body, err)
			}
			select {
			case l := <-lines:
				t.Fatalf("the access-log line %q was let through before its release", l)
			default:
			}
			free() // the held line goes on
			if l := <-lines; l != AccessLogMessage {
				t.Fatalf("line %q", l)
			}
			m := do(t, ts, http.MethodGet, "/metrics", "", nil)
			if want := MetricValidations + `{valid="` + map[bool]string{true: "true", false: "false"}[tc.valid] + `"} 1`; !strings.Contains(string(m.body), want) {
				t.Fatalf("/metrics has no %s", want)
			}
		})
	}
}

// TestValidateReusedBuffers: the server reads bodies into, and encodes
// answers in, buffers reused from request to request; over the corpus's
// 234 bodies sent at once from eight clients, each answer is the one the
// same body gets alone (duration aside), so no request reads another's
// body or answer.
func TestValidateReusedBuffers(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	bodies := corpusBodies(t)
	// answer posts body and returns its answer with duration_ms 0.
	answer := func(body []byte) ([]byte, error) {
		resp, err := ts.Client().Post(ts.URL+"/validate", "application/json", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("status %d, %v: %s", resp.StatusCode, err, b)
		}
		return durationMS.ReplaceAll(b, []byte(`"duration_ms": 0,`)), nil
	}
	want := make([][]byte, len(bodies))
	for i, b := range bodies {
		var err error
		if want[i], err = answer(b); err != nil {
			t.Fatal(err)
		}
	}
	const clients = 8
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := c; i < 4*len(bodies); i += clients {
				k := (i * 7) % len(bodies)
				got, err := answer(bodies[k])
				if err != nil || !bytes.Equal(got, want[k]) {
					t.Errorf("body %d: %v, answer\n%s\nwant\n%s", k, err, got, want[k])
					return
				}
			}
		})
	}
	wg.Wait()
}

// durationMS is the duration in an answer, which differs between two
// answers to the same body.
var durationMS = regexp.MustCompile(`"duration_ms": [0-9.e+-]+,`)

// probeWriter is a ResponseWriter that, at the answer's first write,
// asks the same server for its dashboard and keeps the validations it
// counts: what a client reading the dashboard on another connection the
// moment the answer arrives would see.
type probeWriter struct {
	*httptest.ResponseRecorder
	h    http.Handler
	seen int
	read bool
}

func (w *probeWriter) Write(b []byte) (int, error) {
	if !w.read {
		w.read = true
		rec := httptest.NewRecorder()
		w.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/dashboard", nil))
		var d api.Dashboard
		if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
			return 0, fmt.Errorf("GET /v1/dashboard: %d %s: %w", rec.Code, rec.Body, err)
		}
		w.seen = d.Totals.Validations
	}
	return w.ResponseRecorder.Write(b)
}

// TestValidationCountedBeforeAnswer: a validation is in the dashboard's
// history before its answer is written, so that a client holding the
// answer finds it counted (the answer itself leaves before the request's
// own metrics and access line, decision 114).
func TestValidationCountedBeforeAnswer(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, Options{})
	for i := 1; i <= 2; i++ {
		w := &probeWriter{ResponseRecorder: httptest.NewRecorder(), h: s.Handler()}
		req := httptest.NewRequest(http.MethodPost, "/validate", strings.NewReader(`{"output": {"name": "Ada"}, "expected_schema": `+personSchema+`}`))
		req.Header.Set("Content-Type", "application/json")
		s.Handler().ServeHTTP(w, req)
		if w.Code != http.StatusOK || !w.read {
			t.Fatalf("POST /validate: %d %s (written: %v)", w.Code, w.Body, w.read)
		}
		if w.seen != i {
			t.Errorf("validation %d: the dashboard counted %d validations when the answer was written, want %d", i, w.seen, i)
		}
	}
}
