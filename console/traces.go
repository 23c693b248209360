package console

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

//go:embed assets/traces.html
var tracesHTML string

//go:embed assets/traces.js
var tracesJS string

// DefaultMaxUploadBytes is the default of TracesOptions.MaxBytes, the
// API's default body limit.
const DefaultMaxUploadBytes = 10 << 20

// TracesOptions configure the trace viewer.
type TracesOptions struct {
	// MaxBytes bounds an upload (the conversations, definitions and rules
	// files together, with the form's framing), as the API bounds a
	// request body; 0 means DefaultMaxUploadBytes.
	MaxBytes int64
	// Calls compiles the uploaded tool definitions; nil means a new
	// toolcall.Checker with its defaults.
	Calls *toolcall.Checker
	// Tools are the tools of conversations uploaded with no definitions
	// that carry none themselves (judge serve --tools, --defs); nil: such
	// an upload is refused with a message saying what to add.
	Tools *toolcall.Toolset
}

// Traces returns the handlers of the trace viewer: the page (GET
// /traces, public: it holds no data) and the check of an upload (POST
// /traces, guarded by the API key like the API): a multipart form with the
// file "conversations" (any format judge trace reads) and optionally
// "definitions" (tool definitions) and "rules" (policy rules). The answer
// is the report judge trace --html writes ([WriteTrace]), rendered from
// the upload and nothing kept.
func Traces(opts TracesOptions) (page, upload http.Handler, err error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxUploadBytes
	}
	if opts.Calls == nil {
		if opts.Calls, err = toolcall.New(); err != nil {
			return nil, nil, fmt.Errorf("console: %w", err)
		}
	}
	t, err := parseShell(tracesHTML)
	if err != nil {
		return nil, nil, err
	}
	sh := newShell("/traces", "Traces", dashCSS, tracesJS)
	// The report shown in the page's frame inherits the page's policy:
	// allow its own script too.
	sh.CSP = strings.Replace(sh.CSP, "script-src ", "script-src '"+hash(reportJS)+"' ", 1)
	sh.HeaderCSP = strings.Replace(sh.HeaderCSP, "script-src ", "script-src '"+hash(reportJS)+"' ", 1)
	html, err := renderPage(t, "traces", tracesPage{Shell: sh, MaxBytes: opts.MaxBytes, Limit: sizeText(opts.MaxBytes)})
	if err != nil {
		return nil, nil, err
	}
	page = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writePage(w, r, sh.HeaderCSP, html)
	})
	upload = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveUpload(w, r, opts)
	})
	return page, upload, nil
}

// tracesPage is the page's data.
type tracesPage struct {
	Shell    shell
	MaxBytes int64
	Limit    string
}

// uploadError is an upload the viewer cannot check, with its status.
type uploadError struct {
	status int
	msg    string
}

func (e *uploadError) Error() string { return e.msg }

func badUpload(format string, args ...any) error {
	return &uploadError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// serveUpload checks an upload and answers its report, or the reason it
// cannot, as text.
func serveUpload(w http.ResponseWriter, r *http.Request, opts TracesOptions) {
	var buf bytes.Buffer
	n, err := checkUpload(r.Context(), w, r, opts, &buf)
	if err != nil {
		status := http.StatusInternalServerError
		var ue *uploadError
		if errors.As(err, &ue) {
			status = ue.status
		}
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", csp(reportCSS, reportJS))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Judge-Conversations", strconv.Itoa(n))
	_, _ = w.Write(buf.Bytes())
}

// uploadFiles are the files of an upload.
type uploadFiles struct {
	conversations, definitions, rules []byte
	name                              string
}

// readUpload reads the form's files into memory (never to disk), within
// opts.MaxBytes in all.
func readUpload(w http.ResponseWriter, r *http.Request, max int64) (*uploadFiles, error) {
	if r.ContentLength > max {
		return nil, tooLarge(max)
	}
	r.Body = http.MaxBytesReader(w, r.Body, max)
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, &uploadError{status: http.StatusUnsupportedMediaType, msg: "send the files as multipart/form-data (the page's form does)"}
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, badUpload("the upload is not a valid form: %v", err)
	}
	u := &uploadFiles{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, readError(err, max)
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, readError(err, max)
		}
		switch p.FormName() {
		case "conversations":
			u.conversations, u.name = data, p.FileName()
		case "definitions":
			u.definitions = data
		case "rules":
			u.rules = data
		}
	}
	if len(bytes.TrimSpace(u.conversations)) == 0 {
		return nil, badUpload("the upload has no conversations: choose or drop a conversation file")
	}
	if u.name == "" {
		u.name = "conversations"
	}
	return u, nil
}

func tooLarge(max int64) error {
	return &uploadError{status: http.StatusRequestEntityTooLarge,
		msg: fmt.Sprintf("the upload is larger than the limit of %s (%d bytes): check a smaller file, or run judge trace --html on it", sizeText(max), max)}
}

func readError(err error, max int64) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(max)
	}
	return badUpload("the upload could not be read: %v", err)
}

// checkUpload checks the upload of r as judge trace does and writes its
// report to out; it returns the number of conversations.
func checkUpload(ctx context.Context, w http.ResponseWriter, r *http.Request, opts TracesOptions, out io.Writer) (int, error) {
	u, err := readUpload(w, r, opts.MaxBytes)
	if err != nil {
		return 0, err
	}
	convs, err := trace.Decode(u.conversations)
	if err != nil {
		return 0, badUpload("%s: %v", u.name, err)
	}
	var rules *trace.Rules
	if len(bytes.TrimSpace(u.rules)) > 0 {
		if rules, err = trace.ParseRules(u.rules); err != nil {
			return 0, badUpload("rules: %v", err)
		}
	}
	ts, err := toolsetOf(opts, u.definitions, convs)
	if err != nil {
		return 0, err
	}
	ch, err := trace.New(ts, rules)
	if err != nil {
		return 0, badUpload("rules: %v", err)
	}
	if ch, err = ch.ForInput(ctx, convs); err != nil {
		return 0, fmt.Errorf("console: %w", err)
	}
	reports := make([]*trace.Report, len(convs))
	for i, c := range convs {
		if reports[i], err = ch.Check(ctx, c); err != nil {
			var ce *toolcall.CallError
			if errors.As(err, &ce) {
				return 0, badUpload("%s: %v", u.name, err)
			}
			return 0, fmt.Errorf("console: %w", err)
		}
	}
	rep := Trace{Title: u.name, Conversations: convs, Reports: reports, Summary: ch.Summarize(reports), Rules: rules}
	if err := WriteTrace(out, rep); err != nil {
		return 0, err
	}
	return len(convs), nil
}

// toolsetOf compiles the uploaded definitions, or those the conversations
// recorded, or returns the server's tools.
func toolsetOf(opts TracesOptions, defs []byte, convs []trace.Conversation) (*toolcall.Toolset, error) {
	name := "definitions"
	if len(bytes.TrimSpace(defs)) == 0 {
		defs, name = trace.ToolDefinitions(convs), "the conversations' tool definitions"
	}
	if len(defs) == 0 {
		if opts.Tools == nil {
			return nil, badUpload("no tool definitions: add a tool definitions file (MCP tools, OpenAI functions, a tools/list answer), or start judge serve with --tools or --defs")
		}
		return opts.Tools, nil
	}
	d, err := toolcall.ParseDefinitions(defs, name)
	if err != nil {
		return nil, badUpload("%v", err)
	}
	ts, err := opts.Calls.NewToolset(d...)
	if err != nil {
		return nil, badUpload("%v", err)
	}
	return ts, nil
}
