package console

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/history"
	"github.com/agentjudge/judge/toolcall"
)

// TestDashboardPanels renders the panels of a history fed a hostile
// tool name and issues at two minutes: the name is escaped, every chart
// has its table, and the minutes are where they happened.
func TestDashboardPanels(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 8, 30, 0, 0, time.UTC)
	clock := now
	h := history.New(func() time.Time { return clock })
	h.Validation(&result.ValidationResult{Valid: false, Issues: []result.Issue{{Type: result.MissingField, Severity: result.Error}}}, 4*time.Millisecond)
	clock = now.Add(2 * time.Minute)
	h.Validation(&result.ValidationResult{Valid: true}, 2*time.Millisecond)
	h.Check(`<img src=x onerror=alert(1)>`, false, nil)
	h.Outcome("get_events", toolcall.Failed, nil)
	var buf bytes.Buffer
	if err := WriteDashboard(&buf, h.Snapshot()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`&lt;img src=x onerror=alert(1)&gt;`,
		`<th scope="row">Validations</th><td class="num">2</td>`,
		`<th scope="row">Valid share</th><td class="num">50.0 %</td>`,
		`<th scope="row">08:30</th><td class="num">1</td>`,
		`<th scope="row">08:32</th><td class="num">1</td>`,
		`<figcaption id="c-tools-t">Tools that fail most</figcaption>`,
		`<th scope="row">missing_field</th>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the panels lack %q", want)
		}
	}
	if strings.Contains(page, "<img") {
		t.Error("the hostile tool name is in the panels unescaped")
	}
	if n, m := strings.Count(page, `<svg role="img"`), strings.Count(page, "<table"); m <= n {
		t.Errorf("%d charts but %d tables: every chart needs its table", n, m)
	}
}

// upload builds a multipart form of files (field to path).
func upload(t testing.TB, files map[string]string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for field, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := mw.CreateFormFile(field, filepath.Base(path))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(data)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), buf.Bytes()
}

// TestTracesUpload posts the 100 tau-bench conversations with their tools
// and rules to the viewer's handler and gets the report judge trace
// --html writes of them (measuring the time), then uploads the viewer
// refuses with the reason.
func TestTracesUpload(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "agent-traces")
	files := map[string]string{
		"conversations": filepath.Join(dir, "tau-bench-airline-gpt-4o.dev.json"),
		"definitions":   filepath.Join(dir, "tau-bench-airline-tools.json"),
		"rules":         filepath.Join("..", "examples", "traces", "airline.rules.json"),
	}
	_, h, err := Traces(TracesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctype, body := upload(t, files)
	req := httptest.NewRequest(http.MethodPost, "/traces", bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	w := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(w, req)
	took := time.Since(start)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	want := renderTrace(t, tauBench(t))
	if !bytes.Equal(w.Body.Bytes(), want) {
		t.Errorf("the viewer's report (%d bytes) differs from the one judge trace --html writes (%d bytes)", w.Body.Len(), len(want))
	}
	if w.Header().Get("X-Judge-Conversations") != "100" {
		t.Errorf("X-Judge-Conversations %q", w.Header().Get("X-Judge-Conversations"))
	}
	t.Logf("/traces: %d bytes uploaded, 100 conversations checked and rendered (%d bytes) in %v", len(body), w.Body.Len(), took.Round(time.Millisecond))

	_, small, err := Traces(TracesOptions{MaxBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	var bad bytes.Buffer
	mw := multipart.NewWriter(&bad)
	fw, err := mw.CreateFormFile("conversations", "bad.json")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write([]byte(`[{"role": "user", "content": `))
	_ = mw.Close()
	badType, badBody := mw.FormDataContentType(), bad.Bytes()
	ctype2, body2 := upload(t, map[string]string{"conversations": filepath.Join("testdata", "hostile.json")})
	for _, tc := range []struct {
		name   string
		h      http.Handler
		ctype  string
		body   []byte
		status int
		msg    string
	}{
		{"too large", small, ctype, body, http.StatusRequestEntityTooLarge, "larger than the limit of 4 KiB (4096 bytes)"},
		{"not a form", h, "application/json", []byte(`{}`), http.StatusUnsupportedMediaType, "multipart/form-data"},
		{"no conversations", h, "multipart/form-data; boundary=x", []byte("--x--\r\n"), http.StatusBadRequest, "has no conversations"},
		{"no definitions", h, ctype2, body2, http.StatusBadRequest, "no tool definitions"},
		{"malformed", h, badType, badBody, http.StatusBadRequest, "bad.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/traces", bytes.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.ctype)
			w := httptest.NewRecorder()
			tc.h.ServeHTTP(w, req)
			if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.msg) {
				t.Errorf("%d %q, want %d and %q", w.Code, w.Body, tc.status, tc.msg)
			}
		})
	}
}

// FuzzTracesUpload posts arbitrary bodies as a form to the viewer: it
// answers 200 or a 4xx with a message, never panics.
func FuzzTracesUpload(f *testing.F) {
	f.Add([]byte("--x\r\nContent-Disposition: form-data; name=\"conversations\"; filename=\"a.json\"\r\n\r\n[{\"role\":\"user\",\"content\":\"hi\"}]\r\n--x--\r\n"))
	f.Add([]byte("--x--\r\n"))
	f.Add([]byte("--x\r\nContent-Disposition: form-data; name=\"rules\"\r\n\r\n{\"rules\": [}\r\n--x--"))
	_, h, err := Traces(TracesOptions{MaxBytes: 1 << 16})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/traces", bytes.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK && (w.Code < 400 || w.Code > 499 || w.Body.Len() == 0) {
			t.Fatalf("status %d %q", w.Code, w.Body)
		}
	})
}
