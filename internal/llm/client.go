package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentjudge/judge/result"
)

// Client asks an OpenAI-compatible chat completions API for structured
// answers. It is safe for concurrent use; make one per configuration and
// reuse it, since it holds the cache and the concurrency bound.
type Client struct {
	cfg   Config
	chat  openai.ChatCompletionService
	slots chan struct{}
	cache *cache
	// disk keeps answers across processes; nil without Config.CacheDir.
	disk *diskCache

	mu sync.Mutex
	// flights are the questions being asked, by cache key, so that the
	// same question asked twice at once is paid once.
	flights map[string]*flight
}

// flight is a question being asked; done is closed when it is answered,
// and ok says whether it was (its answer then is in the cache).
type flight struct {
	done chan struct{}
	ok   bool
}

// New returns a Client for cfg, or a *ConfigError. It makes no call.
func New(cfg Config) (*Client, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		// Retries are ours: on 429 and 5xx only, with our backoff.
		option.WithMaxRetries(0),
		option.WithHTTPClient(&http.Client{Transport: limitTransport{base: http.DefaultTransport, max: cfg.MaxAnswerBytes}}),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &Client{
		cfg: cfg,
		// The service, not openai.NewClient: NewClient would also read
		// OPENAI_API_KEY and OPENAI_BASE_URL from the environment.
		chat:    openai.NewChatCompletionService(opts...),
		slots:   make(chan struct{}, cfg.MaxConcurrency),
		cache:   newCache(cfg.CacheEntries),
		disk:    newDiskCache(cfg.CacheDir, cfg.Model, MaxCacheDirEntries),
		flights: map[string]*flight{},
	}, nil
}

// Model returns the configured model's name.
func (c *Client) Model() string { return c.cfg.Model }

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
}

// Question is one structured question to the model.
type Question struct {
	Messages []Message
	// Schema is the answer's shape, sent as response_format json_schema
	// strict and checked on the answer.
	Schema *Schema
	// Check, when not nil, checks a decoded answer further (that it
	// answers what was asked); an error makes the answer malformed.
	Check func(answer any) error
}

// Usage counts tokens.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.PromptTokens + v.PromptTokens, u.CompletionTokens + v.CompletionTokens}
}

// Answer is a model's answer, decoded and valid against its schema.
type Answer struct {
	// Value is the decoded answer (json.Number for numbers).
	Value any
	// Model is the model asked.
	Model string
	// Usage is what this question cost, malformed attempts included; zero
	// for an answer from the cache.
	Usage Usage
	// Cached is true when the answer came from the cache.
	Cached bool
}

// MalformedError is an answer that did not match its schema twice: the
// check is undecided.
type MalformedError struct {
	Attempts int
	Err      error // the last attempt's problem
	Usage    Usage // what the attempts cost
}

func (e *MalformedError) Error() string {
	return fmt.Sprintf("the model's answer was malformed %d times: %v", e.Attempts, e.Err)
}

func (e *MalformedError) Unwrap() error { return e.Err }

// CallError is a call that failed: the server answered an error status, did
// not answer in time, or could not be reached.
type CallError struct {
	Status   int // the HTTP status, 0 when there was none
	Attempts int
	Err      error
	Usage    Usage // what earlier malformed attempts cost
}

func (e *CallError) Error() string {
	switch {
	case errors.Is(e.Err, context.DeadlineExceeded):
		return "the model did not answer in time"
	case errors.Is(e.Err, context.Canceled):
		return "the call to the model was cancelled"
	case e.Status != 0:
		s := fmt.Sprintf("the model server answered %d %s", e.Status, http.StatusText(e.Status))
		if e.Attempts > 1 {
			s += fmt.Sprintf(" after %d attempts", e.Attempts)
		}
		return s
	}
	return fmt.Sprintf("the model server could not be reached: %v", e.Err)
}

func (e *CallError) Unwrap() error { return e.Err }

// Ask puts q to the model and returns its answer. The answer is cached by
// base URL, model, messages and schema: in memory, and in Config.CacheDir
// when set, where an answer is read back only if it decodes and passes
// q.Check as a fresh one must (else the question is asked again). A
// cached answer has Cached true and costs no tokens. A malformed answer (not JSON, not valid
// against the schema, refused, cut short, or failing q.Check) is asked once
// more, with the problem stated; a second one is a *MalformedError. A 429 or
// 5xx status is retried with backoff, never shown to the model; any other
// failure is a *CallError. Ask waits for one of MaxConcurrency slots, and
// ends within RequestTimeout.
func (c *Client) Ask(ctx context.Context, q Question) (*Answer, error) {
	if q.Schema == nil || len(q.Messages) == 0 {
		return nil, errors.New("llm: a question needs messages and a schema")
	}
	key := c.key(q)
	ctx, cancel := context.WithTimeout(ctx, c.cfg.RequestTimeout)
	defer cancel()
	for {
		if v, ok := c.cache.get(key); ok {
			return &Answer{Value: v, Model: c.cfg.Model, Cached: true}, nil
		}
		c.mu.Lock()
		f, asking := c.flights[key]
		if !asking {
			f = &flight{done: make(chan struct{})}
			c.flights[key] = f
		}
		c.mu.Unlock()
		if !asking {
			a, err := c.ask(ctx, key, q)
			c.mu.Lock()
			delete(c.flights, key)
			f.ok = err == nil && c.cache.n > 0
			c.mu.Unlock()
			close(f.done)
			return a, err
		}
		// The same question is under way: wait for its answer, or ask
		// again if it failed.
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, &CallError{Err: ctx.Err()}
		}
		if !f.ok {
			return c.ask(ctx, key, q)
		}
	}
}

// ask asks q, keyed key in the cache, once its flight is registered:
// from the disk cache if it has a good answer, else from the model.
func (c *Client) ask(ctx context.Context, key string, q Question) (*Answer, error) {
	if v, ok := c.fromDisk(key, q); ok {
		c.cache.put(key, v)
		return &Answer{Value: v, Model: c.cfg.Model, Cached: true}, nil
	}
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-ctx.Done():
		return nil, &CallError{Err: ctx.Err()}
	}

	msgs := q.Messages
	var usage Usage
	const attempts = 2
	var last error
	for range attempts {
		content, u, err := c.call(ctx, msgs, q.Schema)
		usage = usage.Add(u)
		if ce := (*CallError)(nil); errors.As(err, &ce) {
			ce.Usage = usage
			return nil, ce
		}
		if err == nil {
			var v any
			if v, err = q.Schema.decode(content); err == nil && q.Check != nil {
				err = q.Check(v)
			}
			if err == nil {
				c.cache.put(key, v)
				c.disk.put(key, content)
				return &Answer{Value: v, Model: c.cfg.Model, Usage: usage}, nil
			}
		}
		last = err
		// The retry states the problem; the first answer goes along so
		// the model sees what it wrote.
		msgs = append([]Message(nil), q.Messages...)
		if content != "" {
			msgs = append(msgs, Message{Role: "assistant", Content: result.Clip(content, 2000)})
		}
		msgs = append(msgs, Message{Role: "user", Content: result.Clip("Your answer was not valid: "+err.Error()+". Answer again with only a JSON object that matches the response schema "+q.Schema.Name()+".", 2000)})
	}
	return nil, &MalformedError{Attempts: attempts, Err: last, Usage: usage}
}

// fromDisk returns the answer to q that the disk cache keeps under key,
// decoded and checked exactly as a fresh answer is; ok is false when there
// is none, or when it does not pass: an entry is never trusted unchecked.
func (c *Client) fromDisk(key string, q Question) (v any, ok bool) {
	content, ok := c.disk.get(key)
	if !ok {
		return nil, false
	}
	v, err := q.Schema.decode(content)
	if err == nil && q.Check != nil {
		err = q.Check(v)
	}
	return v, err == nil
}

// malformed is an answer that came back but cannot be used.
type malformed struct{ msg string }

func (e *malformed) Error() string { return e.msg }

// call makes one chat completion, retrying 429 and 5xx, and returns the
// answer's content. Its error is a *CallError, or a *malformed for an
// answer without usable content.
func (c *Client) call(ctx context.Context, msgs []Message, s *Schema) (string, Usage, error) {
	params := c.params(msgs, s)
	for try := 0; ; try++ {
		cctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
		res, err := c.chat.New(cctx, params)
		cancel()
		if err == nil {
			return content(res)
		}
		var apierr *openai.Error
		status := 0
		if errors.As(err, &apierr) {
			status = apierr.StatusCode
		}
		if (status == http.StatusTooManyRequests || status >= 500) && try < c.cfg.MaxRetries {
			if werr := sleep(ctx, c.backoff(try, apierr)); werr != nil {
				return "", Usage{}, &CallError{Status: status, Attempts: try + 1, Err: werr}
			}
			continue
		}
		if ctx.Err() != nil {
			err = ctx.Err()
		} else if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v: %w", c.cfg.CallTimeout, context.DeadlineExceeded)
		}
		return "", Usage{}, &CallError{Status: status, Attempts: try + 1, Err: err}
	}
}

// content is the usable content of a completion.
func content(res *openai.ChatCompletion) (string, Usage, error) {
	u := Usage{PromptTokens: res.Usage.PromptTokens, CompletionTokens: res.Usage.CompletionTokens}
	if len(res.Choices) == 0 {
		return "", u, &malformed{"the answer has no choices"}
	}
	ch := res.Choices[0]
	switch {
	case ch.Message.Refusal != "":
		return "", u, &malformed{"the model refused: " + result.Clip(ch.Message.Refusal, 200)}
	case ch.FinishReason == "length":
		return ch.Message.Content, u, &malformed{"the answer was cut short at the token limit"}
	case ch.Message.Content == "":
		return "", u, &malformed{"the answer is empty"}
	}
	return ch.Message.Content, u, nil
}

// params is the chat completion request for msgs.
func (c *Client) params(msgs []Message, s *Schema) openai.ChatCompletionNewParams {
	p := openai.ChatCompletionNewParams{
		Model:               shared.ChatModel(c.cfg.Model),
		MaxCompletionTokens: openai.Int(int64(c.cfg.MaxTokens)),
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   s.format.JSONSchema.Name,
					Schema: s.format.JSONSchema.Schema,
					Strict: openai.Bool(true),
				},
			},
		},
	}
	for _, m := range msgs {
		switch m.Role {
		case "system":
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case "assistant":
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Content))
		default:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		}
	}
	return p
}

// backoff is the wait before retry number try+1: the server's Retry-After
// when it gives one in seconds, else Backoff doubled try times; at most
// 10s.
func (c *Client) backoff(try int, apierr *openai.Error) time.Duration {
	d := c.cfg.Backoff << try
	if apierr != nil && apierr.Response != nil {
		if s, err := strconv.Atoi(apierr.Response.Header.Get("Retry-After")); err == nil && s >= 0 {
			d = time.Duration(s) * time.Second
		}
	}
	return min(d, maxBackoff)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// key is the cache key of q: a digest of the base URL, the model, the
// messages and the schema. The base URL is part of it because a disk cache
// outlives the Client: two servers may serve different models under one
// name (a quantized "llama3" here, a full one there). The API key is not:
// it does not change the answer, and it must not reach the disk.
func (c *Client) key(q Question) string {
	h := sha256.New()
	b, _ := json.Marshal(q.Messages)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%x", c.cfg.BaseURL, c.cfg.Model, b, q.Schema.digest)
	return hex.EncodeToString(h.Sum(nil))
}

// cache keeps up to n decoded answers, dropping the oldest first.
type cache struct {
	mu    sync.Mutex
	n     int
	m     map[string]any
	order []string
}

func newCache(n int) *cache { return &cache{n: n, m: map[string]any{}} }

func (c *cache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *cache) put(key string, v any) {
	if c.n <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	if len(c.order) >= c.n {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[key] = v
	c.order = append(c.order, key)
}

// limitTransport reads every answer's body through a limit of max bytes.
type limitTransport struct {
	base http.RoundTripper
	max  int64
}

// RoundTrip sends req and wraps the answer's body.
func (t limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body = &limitedBody{rc: res.Body, left: t.max, max: t.max}
	return res, nil
}

// ErrAnswerTooLarge is an answer whose body is larger than
// Config.MaxAnswerBytes.
var ErrAnswerTooLarge = errors.New("the answer is larger than the limit")

// limitedBody fails a read past max bytes with ErrAnswerTooLarge.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
	max  int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, fmt.Errorf("%w of %d bytes", ErrAnswerTooLarge, b.max)
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, fmt.Errorf("%w of %d bytes", ErrAnswerTooLarge, b.max)
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }
