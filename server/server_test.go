package server

import (
	"encoding/json"
	"fmt"
	"github.com/agentjudge/judge/internal/httpapi"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
)

const personSchema = `{"type": "object", "required": ["name", "age"], "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}}}`

func TestValidate(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tests := []struct {
		name       string
		path       string
		body       string
		wantValid  bool
		wantTypes  []result.Type // each must be among the issue types
		wantPassed []string
		wantFailed []string
	}{{
		name:      "nothing to check",
		path:      "/validate",
		body:      `{"output": {"name": "Ada"}}`,
		wantValid: true,
		wantTypes: []result.Type{result.NotChecked},
	}, {
		name:      "schema met",
		path:      "/validate",
		body:      `{"output": {"name": "Ada", "age": 36}, "expected_schema": ` + personSchema + `}`,
		wantValid: true,
	}, {
		name:      "schema missing field",
		path:      "/validate",
		body:      `{"output": {"name": "Ada"}, "expected_schema": ` + personSchema + `}`,
		wantTypes: []result.Type{result.MissingField},
	}, {
		name:      "schema wrong type",
		path:      "/v1/validate",
		body:      `{"output": {"name": 7, "age": 36}, "expected_schema": ` + personSchema + `}`,
		wantTypes: []result.Type{result.InvalidType},
	}, {
		name:      "schema missing field and wrong type",
		path:      "/v1/validate",
		body:      `{"output": {"name": ["Ada"]}, "expected_schema": ` + personSchema + `}`,
		wantTypes: []result.Type{result.MissingField, result.InvalidType},
	}, {
		name:      "JSON in a string is parsed",
		path:      "/validate",
		body:      `{"output": "{\"name\": \"Ada\"}", "expected_schema": ` + personSchema + `}`,
		wantTypes: []result.Type{result.OutputParsed, result.MissingField},
	}, {
		name:       "CEL rule met",
		path:       "/validate",
		body:       `{"output": {"items": [1, 2, 3]}, "acceptance_criteria": [{"id": "three", "description": "Has three items", "rule": "size(output.items) == 3"}]}`,
		wantValid:  true,
		wantPassed: []string{"Has three items"},
	}, {
		name:       "CEL rule not met",
		path:       "/v1/validate",
		body:       `{"output": {"items": [1]}, "acceptance_criteria": [{"description": "Has three items", "rule": "size(output.items) == 3"}]}`,
		wantTypes:  []result.Type{result.CriteriaNotMet},
		wantFailed: []string{"Has three items"},
	}, {
		name:       "CEL rule reads context",
		path:       "/validate",
		body:       `{"output": {"total": 12}, "context": {"max": 10}, "acceptance_criteria": [{"description": "Total within budget", "rule": "output.total <= context.max"}]}`,
		wantTypes:  []result.Type{result.CriteriaNotMet},
		wantFailed: []string{"Total within budget"},
	}, {
		name:       "schema and criteria together",
		path:       "/validate",
		body:       `{"output": {"name": "Ada", "age": 36}, "expected_schema": ` + personSchema + `, "acceptance_criteria": [{"description": "Adult", "rule": "output.age >= 18"}]}`,
		wantValid:  true,
		wantPassed: []string{"Adult"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, http.MethodPost, tt.path, tt.body, nil)
			res := mustResult(t, r)
			if res.Valid != tt.wantValid {
				t.Errorf("valid = %v, want %v; issues: %+v", res.Valid, tt.wantValid, res.Issues)
			}
			got := issueTypes(res)
			for _, typ := range tt.wantTypes {
				if !slices.Contains(got, typ) {
					t.Errorf("no %s issue; issues: %+v", typ, res.Issues)
				}
			}
			if tt.wantValid && res.Metadata.ErrorCount != 0 {
				t.Errorf("error_count = %d for a valid output", res.Metadata.ErrorCount)
			}
			if tt.wantPassed != nil && !slices.Equal(res.PassedCriteria, tt.wantPassed) {
				t.Errorf("passed_criteria = %q, want %q", res.PassedCriteria, tt.wantPassed)
			}
			if tt.wantFailed != nil && !slices.Equal(res.FailedCriteria, tt.wantFailed) {
				t.Errorf("failed_criteria = %q, want %q", res.FailedCriteria, tt.wantFailed)
			}
		})
	}
}

func TestValidateErrors(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{MaxBodyBytes: 4096, MaxDepth: 16})
	deep := `{"output": ` + strings.Repeat("[", 20) + strings.Repeat("]", 20) + `}`
	big := `{"output": "` + strings.Repeat("x", 5000) + `"}`
	tests := []struct {
		name        string
		body        string
		header      map[string]string
		status      int
		detail      []string // substrings of the detail
		field       string   // errors[0].field when not empty
		contentType string   // the request's Content-Type; "" keeps application/json
	}{
		{name: "malformed JSON", body: "{\n  \"output\": {\"a\": 1,}\n}", status: 400, detail: []string{"line 2, column", "body"}, field: "body"},
		{name: "truncated JSON", body: `{"output": [1, 2`, status: 400, detail: []string{"line 1, column 17", "unexpected end"}},
		{name: "empty body", body: " ", status: 400, detail: []string{"line 1"}},
		{name: "unknown field", body: `{"output": 1, "outptu": 2}`, status: 400, detail: []string{`unknown field "outptu"`}, field: "body"},
		{name: "unknown option", body: `{"output": 1, "options": {"mode": "x"}}`, status: 400, detail: []string{`unknown field "mode"`}},
		{name: "wrong field type", body: `{"output": 1, "validation_types": "schema"}`, status: 400, detail: []string{"validation_types", "line 1"}},
		{name: "trailing data", body: `{"output": 1} {}`, status: 400, detail: []string{"after the request"}},
		{name: "no output", body: `{"expected_schema": {}}`, status: 400, detail: []string{"output"}, field: "output"},
		{name: "too deep", body: deep, status: 400, detail: []string{"nested more than 16 levels", "line 1, column"}},
		{name: "unknown validation type", body: `{"output": 1, "validation_types": ["vibes"]}`, status: 400, detail: []string{"vibes"}, field: "validation_types"},
		{name: "bad output mode", body: `{"output": 1, "options": {"output_mode": "raw"}}`, status: 400, detail: []string{"output_mode"}},
		{name: "rule does not compile", body: `{"output": 1, "acceptance_criteria": [{"rule": "output +"}]}`, status: 400, detail: []string{"acceptance_criteria[0]"}},
		{name: "invalid schema", body: `{"output": 1, "expected_schema": {"type": 12}}`, status: 400, detail: []string{"expected_schema"}},
		{name: "body too large", body: big, status: 413, detail: []string{"4096 bytes"}},
		{name: "text/plain", body: `{"output": 1}`, contentType: "text/plain", status: 415, detail: []string{"text/plain"}},
		{name: "form", body: `output=1`, contentType: "application/x-www-form-urlencoded", status: 415, detail: []string{"curl", "--json"}},
		{name: "bad charset", body: `{"output": 1}`, contentType: "application/json; charset=latin1", status: 415, detail: []string{"latin1"}},
		{name: "unparsable content type", body: `{"output": 1}`, contentType: "application/json; ;", status: 415},
		{name: "gzip", body: `{"output": 1}`, header: map[string]string{"Content-Encoding": "gzip"}, status: 415, detail: []string{"gzip"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := map[string]string{}
			for k, v := range tt.header {
				h[k] = v
			}
			if tt.contentType != "" {
				h["Content-Type"] = tt.contentType
			}
			r := do(t, ts, http.MethodPost, "/validate", tt.body, h)
			p := mustProblem(t, r, tt.status, "/validate")
			for _, want := range tt.detail {
				if !strings.Contains(p.Detail, want) {
					t.Errorf("detail %q does not contain %q", p.Detail, want)
				}
			}
			if tt.field != "" && (len(p.Errors) == 0 || p.Errors[0].Field != tt.field) {
				t.Errorf("errors = %+v, want field %q first", p.Errors, tt.field)
			}
			if tt.status == 415 && r.header.Get("Accept-Post") != api.MediaTypeJSON {
				t.Errorf("Accept-Post = %q, want %q", r.header.Get("Accept-Post"), api.MediaTypeJSON)
			}
		})
	}
}

func TestValidateMediaTypes(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	for _, ct := range []string{"", "application/json", "Application/JSON; charset=UTF-8", "application/vnd.judge.request+json"} {
		t.Run(ct, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, http.MethodPost, "/validate", `{"output": 1}`, map[string]string{"Content-Type": ct})
			mustResult(t, r)
		})
	}
}

// TestBodyTooLargeChunked sends an over-limit body without a
// Content-Length, so that the limit is found while reading.
func TestBodyTooLargeChunked(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{MaxBodyBytes: 1024})
	pr, pw := io.Pipe()
	go func() {
		_, _ = io.WriteString(pw, `{"output": "`+strings.Repeat("y", 4096)+`"}`)
		_ = pw.Close()
	}()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/validate", pr)
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if req.ContentLength != -1 && req.ContentLength != 0 {
		t.Fatalf("request has a Content-Length %d; the test needs none", req.ContentLength)
	}
	mustProblem(t, response{resp.StatusCode, resp.Header, body}, http.StatusRequestEntityTooLarge, "/validate")
}

func TestRouting(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tests := []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodGet, "/validate", 405, "POST"},
		{http.MethodPut, "/v1/validate", 405, "POST"},
		{http.MethodPost, "/healthz", 405, "GET, HEAD"},
		{http.MethodDelete, "/metrics", 405, "GET, HEAD"},
		{http.MethodGet, "/nope", 404, ""},
		{http.MethodGet, "/", 404, ""},
		{http.MethodGet, "/v1/tools/lint", 405, "POST"},
		{http.MethodGet, "/v1/calls/check", 405, "POST"},
		{http.MethodGet, "/v1/calls/outcome", 405, "POST"},
		{http.MethodPost, "/validate/extra", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, tt.method, tt.path, "", nil)
			mustProblem(t, r, tt.status, tt.path)
			if got := r.header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token"
	_, ts := newTestServer(t, Options{Token: token})
	body := `{"output": 1}`
	tests := []struct {
		name      string
		method    string
		path      string
		auth      string
		status    int
		challenge string // WWW-Authenticate when 401
	}{
		{"validate without token", "POST", "/validate", "", 401, `Bearer realm="judge"`},
		{"validate with wrong token", "POST", "/validate", "Bearer nope", 401, `Bearer realm="judge", error="invalid_token"`},
		{"validate with token prefix", "POST", "/validate", "Bearer s3cret", 401, `Bearer realm="judge", error="invalid_token"`},
		{"validate with basic auth", "POST", "/validate", "Basic czNjcmV0LXRva2Vu", 401, `Bearer realm="judge", error="invalid_token"`},
		{"validate with token", "POST", "/validate", "Bearer " + token, 200, ""},
		{"scheme is case-insensitive", "POST", "/v1/validate", "bearer " + token, 200, ""},
		{"metrics without token", "GET", "/metrics", "", 401, `Bearer realm="judge"`},
		{"metrics with token", "GET", "/metrics", "Bearer " + token, 200, ""},
		{"openapi without token", "GET", "/openapi.json", "", 401, `Bearer realm="judge"`},
		{"capabilities without token", "GET", "/capabilities", "", 401, `Bearer realm="judge"`},
		{"unknown route without token", "GET", "/nope", "", 401, `Bearer realm="judge"`},
		{"healthz without token", "GET", "/healthz", "", 200, ""},
		{"readyz without token", "GET", "/readyz", "", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := ""
			if tt.method == http.MethodPost {
				b = body
			}
			r := do(t, ts, tt.method, tt.path, b, map[string]string{"Authorization": tt.auth})
			if tt.status == http.StatusUnauthorized {
				mustProblem(t, r, 401, tt.path)
				if got := r.header.Get("WWW-Authenticate"); got != tt.challenge {
					t.Errorf("WWW-Authenticate = %q, want %q", got, tt.challenge)
				}
				return
			}
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
		})
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	s, ts := newTestServer(t, Options{})
	for _, path := range []string{"/healthz", "/readyz"} {
		r := do(t, ts, http.MethodGet, path, "", nil)
		if r.status != 200 || string(r.body) != "{\n  \"status\": \"ok\"\n}\n" {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
	s.ready.Store(false)
	mustProblem(t, do(t, ts, http.MethodGet, "/readyz", "", nil), 503, "/readyz")
	if r := do(t, ts, http.MethodGet, "/healthz", "", nil); r.status != 200 {
		t.Errorf("healthz while not ready: %d", r.status)
	}
}

func TestCapabilities(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	s := New(e, Options{MaxBodyBytes: 1 << 20, MaxDepth: 64, Version: "v1.2.3"})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	r := do(t, ts, http.MethodGet, "/capabilities", "", nil)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var c api.Capabilities
	dec := json.NewDecoder(strings.NewReader(string(r.body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatal(err)
	}
	if c.Version != "v1.2.3" {
		t.Errorf("version %q", c.Version)
	}
	if !slices.Equal(c.ValidationTypes, e.Types()) {
		t.Errorf("validation_types %q, want %q", c.ValidationTypes, e.Types())
	}
	for _, want := range []string{"schema", "criteria", "facts", "hallucination", "quality"} {
		if !slices.Contains(c.ValidationTypes, want) {
			t.Errorf("validation_types %q lack %q", c.ValidationTypes, want)
		}
	}
	if len(c.Layers) != len(e.Layers()) {
		t.Fatalf("layers %+v, engine has %d", c.Layers, len(e.Layers()))
	}
	for i, l := range e.Layers() {
		if c.Layers[i].Name != l.Name || c.Layers[i].Doc == "" || strings.Contains(c.Layers[i].Doc, "\n") || !strings.HasPrefix(l.Doc, c.Layers[i].Doc) {
			t.Errorf("layer %d = %+v, engine layer %s", i, c.Layers[i], l.Name)
		}
	}
	if c.Limits != (api.Limits{MaxBodyBytes: 1 << 20, MaxDepth: 64}) {
		t.Errorf("limits %+v", c.Limits)
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	s := New(newEngine(t), Options{})
	want := Options{
		MaxBodyBytes: 10 << 20, MaxDepth: 256,
		ReadTimeout: DefaultReadTimeout, WriteTimeout: DefaultWriteTimeout, IdleTimeout: DefaultIdleTimeout,
		ShutdownTimeout: DefaultShutdownTimeout, Version: s.opts.Version, MaxInFlight: DefaultMaxInFlight, MaxInFlightBytes: 20 << 20,
		StreamIdleTimeout: DefaultStreamIdleTimeout,
	}
	if s.opts != want {
		t.Errorf("options %+v, want %+v", s.opts, want)
	}
	if s.opts.Version == "" {
		t.Error("no default version")
	}
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tests := []struct {
		name, in string
		keep     bool
	}{
		{"kept", "req-42.abc:1", true},
		{"absent", "", false},
		{"with a space", "req 42", false},
		{"with a newline", "req\n42", false},
		{"too long", strings.Repeat("a", 129), false},
		{"longest", strings.Repeat("a", 128), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/nope", nil)
			if tt.in != "" {
				req.Header[HeaderRequestID] = []string{tt.in}
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				if tt.name == "with a newline" {
					return // the client refuses to send it
				}
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			got := resp.Header.Get(HeaderRequestID)
			var p api.Problem
			_ = json.Unmarshal(body, &p)
			if p.RequestID != got {
				t.Errorf("problem request_id %q, header %q", p.RequestID, got)
			}
			switch {
			case tt.keep && got != tt.in:
				t.Errorf("request id %q, want the client's %q", got, tt.in)
			case !tt.keep && (got == "" || got == tt.in || len(got) > httpapi.MaxRequestIDLen):
				t.Errorf("request id %q, want a generated one", got)
			}
		})
	}
}

func TestAccessLog(t *testing.T) {
	t.Parallel()
	var logs logBuffer
	s := New(newEngine(t), Options{Logger: newLogger(&logs)})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	r := do(t, ts, http.MethodPost, "/v1/validate", `{"output": 1}`, map[string]string{HeaderRequestID: "log-test-1"})
	mustResult(t, r)
	do(t, ts, http.MethodGet, "/nope/"+strings.Repeat("x", 10), "", map[string]string{HeaderRequestID: "log-test-2"})
	var found int
	for _, l := range logs.lines(t) {
		if l["msg"] != "request" {
			continue
		}
		switch l["request_id"] {
		case "log-test-1":
			found++
			if l["method"] != "POST" || l["route"] != "/v1/validate" || l["status"] != 200.0 || l["bytes"] != float64(len(r.body)) || l["level"] != "INFO" {
				t.Errorf("log line %v", l)
			}
			if _, ok := l["duration"].(float64); !ok {
				t.Errorf("log line without duration: %v", l)
			}
		case "log-test-2":
			found++
			if l["route"] != unmatched || l["status"] != 404.0 {
				t.Errorf("log line %v", l)
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d request lines, want 2: %v", found, logs.lines(t))
	}
}

func TestPanicRecovery(t *testing.T) {
	t.Parallel()
	var logs logBuffer
	s := New(newEngine(t), Options{Logger: newLogger(&logs)})
	h := httpapi.Observe(s.log, s.routeLabel, s.metrics, httpapi.Recover(s.log, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom: secret internals")
	})))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/validate", strings.NewReader(`{}`)))
	r := response{rec.Code, rec.Header(), rec.Body.Bytes()}
	if r.status != 500 {
		t.Fatalf("status %d", r.status)
	}
	if err := checkProblem(r.header, r.body, 500); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(r.body), "secret") {
		t.Errorf("the panic leaked into the answer: %s", r.body)
	}
	var logged bool
	for _, l := range logs.lines(t) {
		if l["msg"] == "panic in handler" && strings.Contains(fmt.Sprint(l["panic"]), "boom") && l["stack"] != "" {
			logged = true
		}
	}
	if !logged {
		t.Errorf("panic not logged: %v", logs.lines(t))
	}

	// A panic after the answer began aborts the connection.
	h = httpapi.Observe(s.log, s.routeLabel, s.metrics, httpapi.Recover(s.log, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		panic("late")
	})))
	func() {
		defer func() {
			if v := recover(); v != http.ErrAbortHandler {
				t.Errorf("recovered %v, want http.ErrAbortHandler", v)
			}
		}()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/healthz", nil))
	}()
}

func TestConcurrent(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	const n = 50
	errs := make(chan error, n)
	for i := range n {
		go func() {
			errs <- func() error {
				var body string
				wantValid := i%2 == 0
				switch i % 4 {
				case 0:
					body = fmt.Sprintf(`{"output": {"name": "n%d", "age": %d}, "expected_schema": %s}`, i, i, personSchema)
				case 1:
					body = fmt.Sprintf(`{"output": {"name": %d}, "expected_schema": %s}`, i, personSchema)
				case 2:
					body = fmt.Sprintf(`{"output": {"n": %d}, "acceptance_criteria": [{"description": "n matches", "rule": "output.n == %d"}]}`, i, i)
				case 3:
					body = fmt.Sprintf(`{"output": {"n": %d}, "acceptance_criteria": [{"description": "n is off", "rule": "output.n == %d"}]}`, i, i+1)
				}
				resp, err := ts.Client().Post(ts.URL+"/validate", "application/json", strings.NewReader(body))
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				if err != nil {
					return err
				}
				if resp.StatusCode != 200 {
					return fmt.Errorf("request %d: status %d: %s", i, resp.StatusCode, b)
				}
				if err := result.CheckJSON(b); err != nil {
					return fmt.Errorf("request %d: %v", i, err)
				}
				var res result.ValidationResult
				if err := json.Unmarshal(b, &res); err != nil {
					return err
				}
				if res.Valid != wantValid {
					return fmt.Errorf("request %d: valid = %v, want %v: %s", i, res.Valid, wantValid, b)
				}
				return nil
			}()
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
