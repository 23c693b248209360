package llm

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Environment variables that configure the model.
const (
	// EnvBaseURL is the OpenAI-compatible base URL, with its /v1:
	// https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama),
	// http://127.0.0.1:8000/v1 (vLLM).
	EnvBaseURL = "JUDGE_LLM_BASE_URL"
	// EnvModel is the model's name as the server knows it.
	EnvModel = "JUDGE_LLM_MODEL"
	// EnvAPIKey is the bearer token, if the server needs one.
	EnvAPIKey = "JUDGE_LLM_API_KEY"
	// EnvCacheDir is a directory that keeps the model's answers across
	// runs (see [Config.CacheDir]); unset, answers are kept in memory only.
	EnvCacheDir = "JUDGE_LLM_CACHE_DIR"
)

// Defaults of [Config].
const (
	DefaultCallTimeout    = 60 * time.Second
	DefaultRequestTimeout = 120 * time.Second
	DefaultMaxConcurrency = 4
	DefaultMaxRetries     = 2
	DefaultCacheEntries   = 1024
	DefaultMaxTokens      = 2048
	// DefaultMaxAnswerBytes bounds the body of one HTTP answer.
	DefaultMaxAnswerBytes = 4 << 20
	// DefaultBackoff is the wait before the first retry; it doubles with
	// each further retry.
	DefaultBackoff = 500 * time.Millisecond
	// maxBackoff caps one wait, a Retry-After header included.
	maxBackoff = 10 * time.Second
)

// Config configures a [Client]. The zero value of every field but BaseURL
// and Model means its default.
type Config struct {
	// BaseURL is the OpenAI-compatible API's base URL, ending in /v1
	// (http or https). Required.
	BaseURL string
	// Model is the model's name. Required.
	Model string
	// APIKey is sent as a bearer token when not empty. Nothing else is
	// read from the environment: OPENAI_API_KEY is ignored, so that a key
	// meant for one server is never sent to another.
	APIKey string
	// CallTimeout bounds one HTTP call (DefaultCallTimeout).
	CallTimeout time.Duration
	// RequestTimeout bounds one question, its retries included
	// (DefaultRequestTimeout). The caller's context may end it sooner.
	RequestTimeout time.Duration
	// MaxConcurrency bounds the calls under way at once through one Client
	// (DefaultMaxConcurrency).
	MaxConcurrency int
	// MaxAnswerBytes bounds the body of one HTTP answer, read through a
	// limit (DefaultMaxAnswerBytes): a larger answer is a *CallError.
	MaxAnswerBytes int64
	// MaxRetries is how many times a call answered 429 or 5xx is retried,
	// with backoff (DefaultMaxRetries); -1 means never.
	MaxRetries int
	// Backoff is the wait before the first retry, doubled for each next
	// one and capped at 10s (DefaultBackoff).
	Backoff time.Duration
	// CacheEntries bounds the answers kept (DefaultCacheEntries); -1
	// disables the cache.
	CacheEntries int
	// MaxTokens bounds the tokens of one answer (DefaultMaxTokens).
	MaxTokens int
	// CacheDir, when not empty, keeps answers on disk, one file per
	// question, so that another Client (another run of judge) is not
	// charged for a question already answered; "" (the default) keeps
	// them in memory only. An entry is decoded and checked as a fresh
	// answer is, and one that fails is asked again; a directory that
	// cannot be read or written is as if there were none. The directory
	// is created (mode 0700) on the first answer written, entries are
	// written 0600, and it holds at most [MaxCacheDirEntries] of them.
	// The answers quote the output judged: keep the directory private.
	CacheDir string
}

// ConfigError is a model configuration that cannot work.
type ConfigError struct {
	Field string // the variable or field: "JUDGE_LLM_BASE_URL"
	Msg   string
}

func (e *ConfigError) Error() string { return "llm: " + e.Field + ": " + e.Msg }

// ConfigFromEnv reads the model's configuration through getenv (os.Getenv
// in a program). It returns ok false, and no error, when neither
// JUDGE_LLM_BASE_URL nor JUDGE_LLM_MODEL is set: then there is no model, and
// judge stays deterministic (JUDGE_LLM_CACHE_DIR alone changes nothing).
// Setting one without the other, a base URL that is not http(s), or a
// JUDGE_LLM_CACHE_DIR that exists and is not a directory, is a
// *ConfigError.
func ConfigFromEnv(getenv func(string) string) (cfg Config, ok bool, err error) {
	cfg = Config{
		BaseURL:  strings.TrimSpace(getenv(EnvBaseURL)),
		Model:    strings.TrimSpace(getenv(EnvModel)),
		APIKey:   strings.TrimSpace(getenv(EnvAPIKey)),
		CacheDir: strings.TrimSpace(getenv(EnvCacheDir)),
	}
	if cfg.BaseURL == "" && cfg.Model == "" {
		return Config{}, false, nil
	}
	if err := cfg.check(); err != nil {
		return Config{}, false, err
	}
	return cfg, true, nil
}

// check reports the first problem of c.
func (c Config) check() error {
	switch {
	case c.BaseURL == "":
		return &ConfigError{Field: EnvBaseURL, Msg: "is not set, but " + EnvModel + " is: set both to use a model, or neither"}
	case c.Model == "":
		return &ConfigError{Field: EnvModel, Msg: "is not set, but " + EnvBaseURL + " is: set both to use a model, or neither"}
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &ConfigError{Field: EnvBaseURL, Msg: fmt.Sprintf("%q is not an http or https URL such as http://127.0.0.1:11434/v1", c.BaseURL)}
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"CallTimeout", c.CallTimeout}, {"RequestTimeout", c.RequestTimeout}, {"Backoff", c.Backoff}} {
		if d.v < 0 {
			return &ConfigError{Field: d.name, Msg: fmt.Sprintf("%v is negative", d.v)}
		}
	}
	if c.MaxConcurrency < 0 || c.MaxTokens < 0 || c.MaxRetries < -1 || c.CacheEntries < -1 {
		return &ConfigError{Field: "Config", Msg: "a bound is negative"}
	}
	if c.CacheDir != "" {
		// Only a path that cannot become a directory is refused: one that
		// does not exist yet is made on the first write, and one that
		// cannot be read or written leaves the cache in memory.
		if fi, err := os.Stat(c.CacheDir); err == nil && !fi.IsDir() {
			return &ConfigError{Field: EnvCacheDir, Msg: fmt.Sprintf("%q is not a directory; name a directory to keep the model's answers in", c.CacheDir)}
		}
	}
	return nil
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	c.BaseURL = strings.TrimRight(c.BaseURL, "/") + "/"
	if c.CallTimeout == 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.MaxConcurrency == 0 {
		c.MaxConcurrency = DefaultMaxConcurrency
	}
	if c.MaxAnswerBytes <= 0 {
		c.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	switch c.MaxRetries {
	case 0:
		c.MaxRetries = DefaultMaxRetries
	case -1:
		c.MaxRetries = 0
	}
	if c.Backoff == 0 {
		c.Backoff = DefaultBackoff
	}
	switch c.CacheEntries {
	case 0:
		c.CacheEntries = DefaultCacheEntries
	case -1:
		c.CacheEntries = 0
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	return c
}
