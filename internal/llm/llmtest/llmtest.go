// Package llmtest is a fake OpenAI-compatible chat completions server on
// loopback, for tests of judge with a model: it answers POST
// /v1/chat/completions from fixture files in the API's response format,
// in the order given, and checks every request it receives — the model,
// the response_format (json_schema, strict, the expected schema) and the
// messages (a system prompt, then a user message with its data fenced and
// labelled).
package llmtest

import (
	"embed"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

//go:embed fixtures/*.json
var fixtures embed.FS

// Model is the model name the fake expects unless told otherwise.
const Model = "judge-test-model"

// Fixture returns the body of the fixture file fixtures/NAME.json; it
// panics when there is none.
func Fixture(name string) []byte {
	b, err := fixtures.ReadFile("fixtures/" + name + ".json")
	if err != nil {
		panic(err)
	}
	return b
}

// Reply is one answer of the fake.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Fixture names the body's fixture file (see [Fixture]).
	Fixture string
	// Header is added to the answer (Retry-After, say).
	Header map[string]string
	// Delay holds the answer back this long, or until the client gives up.
	Delay time.Duration
	// Match, when not empty, reserves the reply for a request whose user
	// message contains it, for requests that arrive in any order.
	Match string
}

// Request is a request the fake received.
type Request struct {
	Model          string          `json:"model"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Messages       []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
	// Auth is the Authorization header.
	Auth string `json:"-"`
}

// Server is the fake. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL to configure, ending in /v1.
	URL string
	// Model is the model requests must name (Model by default).
	Model string
	// ResponseFormat, when not nil, is the response_format every request
	// must carry, as JSON.
	ResponseFormat []byte
	// APIKey, when not empty, is the bearer token every request must
	// carry; when empty, requests must carry none.
	APIKey string

	t       testing.TB
	ts      *httptest.Server
	mu      sync.Mutex
	replies []Reply
	got     []Request
	// inFlight and maxInFlight count requests being answered.
	inFlight, maxInFlight int
}

// NewServer starts a fake that gives replies in order (the first that
// matches, see [Reply.Match]), and closes it when
// the test ends. A request beyond the replies fails the test.
func NewServer(t testing.TB, replies ...Reply) *Server {
	s := &Server{Model: Model, t: t, replies: replies}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.ts.URL + "/v1"
	t.Cleanup(s.ts.Close)
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.got...)
}

// MaxInFlight returns the most requests the fake was answering at once.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

// Pending returns how many replies are still unused.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	fail := func(format string, args ...any) {
		s.t.Errorf("llmtest: "+format, args...)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"llmtest: bad request","type":"invalid_request_error","param":null,"code":null}}`)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		fail("got %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		fail("Content-Type %q is not JSON", ct)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		fail("reading the body: %v", err)
		return
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		fail("the body is not a chat completion request: %v", err)
		return
	}
	req.Auth = r.Header.Get("Authorization")
	s.mu.Lock()
	s.got = append(s.got, req)
	var reply Reply
	ok := false
	for i, rp := range s.replies {
		if rp.Match == "" || (len(req.Messages) > 1 && strings.Contains(req.Messages[1].Content, rp.Match)) {
			reply, ok = rp, true
			s.replies = append(s.replies[:i:i], s.replies[i+1:]...)
			break
		}
	}
	s.mu.Unlock()

	if problem := s.check(req); problem != "" {
		fail("%s", problem)
		return
	}
	if !ok {
		fail("a request beyond the replies given: %s", body)
		return
	}
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if reply.Status != 0 {
		w.WriteHeader(reply.Status)
	}
	w.Write(Fixture(reply.Fixture))
}

// check returns what is wrong with req, or "".
func (s *Server) check(req Request) string {
	switch want := "Bearer " + s.APIKey; {
	case s.APIKey == "" && req.Auth != "":
		return "an Authorization header was sent, but no key is configured"
	case s.APIKey != "" && req.Auth != want:
		return "Authorization is " + req.Auth + ", want " + want
	}
	if req.Model != s.Model {
		return "model is " + req.Model + ", want " + s.Model
	}
	var rf struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string `json:"name"`
			Strict bool   `json:"strict"`
			Schema any    `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(req.ResponseFormat, &rf); err != nil || rf.Type != "json_schema" || !rf.JSONSchema.Strict || rf.JSONSchema.Name == "" || rf.JSONSchema.Schema == nil {
		return "response_format is not {type: json_schema, json_schema: {name, schema, strict: true}}: " + string(req.ResponseFormat)
	}
	if s.ResponseFormat != nil {
		var got, want any
		json.Unmarshal(req.ResponseFormat, &got)
		if err := json.Unmarshal(s.ResponseFormat, &want); err != nil {
			return "the expected response_format is not JSON: " + err.Error()
		}
		if !reflect.DeepEqual(got, want) {
			return "response_format is " + string(req.ResponseFormat) + ", want " + string(s.ResponseFormat)
		}
	}
	if len(req.Messages) < 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		return "the messages are not a system prompt followed by a user message"
	}
	user := req.Messages[1].Content
	const open = "\nBEGIN DATA output "
	begin := strings.Index(user, open)
	if begin < 0 {
		return "the user message does not fence the output as data"
	}
	tag, _, _ := strings.Cut(user[begin+len(open):], "\n")
	if !strings.Contains(user, "\nEND DATA output "+tag) || len(tag) != 16 {
		return "the output's fence is not closed with its tag " + tag
	}
	for _, m := range req.Messages[2:] {
		if m.Role != "assistant" && m.Role != "user" {
			return "a later message has role " + m.Role
		}
		if strings.Contains(strings.ToLower(m.Content), "rate limit") {
			return "a rate-limit error was fed to the model: " + m.Content
		}
	}
	return ""
}
