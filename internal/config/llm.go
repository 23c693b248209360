package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/internal/llm"
)

// LLMConfig is the model's configuration: each of JUDGE_LLM_BASE_URL,
// JUDGE_LLM_MODEL, JUDGE_LLM_API_KEY and JUDGE_LLM_CACHE_DIR that is set in
// the environment (read through getenv, os.Getenv in a program), else the
// same key of the file's llm section, which may also name the key's
// variable (api_key_env) and the per-call timeout. The file's key goes only to the
// file's base URL: when JUDGE_LLM_BASE_URL is set, only JUDGE_LLM_API_KEY
// supplies a key.
//
// It returns ok false, and no error, when neither a base URL nor a model
// is configured: then judge has no model. A nil f reads the environment
// alone, as [llm.ConfigFromEnv]. One of the two without the other, a base
// URL that is not http(s), a cache directory that exists and is not a
// directory, or an api_key_env naming an unset variable, is an error: an [*Error] with the file's position when the file gave the
// value, else an [*llm.ConfigError].
func (f *File) LLMConfig(getenv func(string) string) (cfg llm.Config, ok bool, err error) {
	if f == nil {
		return llm.ConfigFromEnv(getenv)
	}
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	file := map[string]String{llm.EnvBaseURL: f.LLM.BaseURL, llm.EnvModel: f.LLM.Model, llm.EnvCacheDir: f.LLM.CacheDir}
	keyFromVar := false
	if env(llm.EnvBaseURL) == "" && env(llm.EnvAPIKey) == "" {
		switch {
		case f.LLM.APIKey.Set():
			file[llm.EnvAPIKey] = f.LLM.APIKey
		case f.LLM.APIKeyEnv.Set():
			keyFromVar = true
			file[llm.EnvAPIKey] = String{Value: env(f.LLM.APIKeyEnv.Value), Pos: f.LLM.APIKeyEnv.Pos}
		}
	}
	get := func(k string) string {
		if v := env(k); v != "" {
			return v
		}
		return file[k].Value
	}
	cfg, ok, err = llm.ConfigFromEnv(get)
	if err != nil {
		return llm.Config{}, false, f.locate(err, env)
	}
	if !ok {
		return llm.Config{}, false, nil
	}
	if keyFromVar && cfg.APIKey == "" {
		v := f.LLM.APIKeyEnv
		return llm.Config{}, false, &Error{File: f.Path, Pos: v.Pos,
			Msg: fmt.Sprintf("llm.api_key_env names %s, which is not set or empty; set it to the API key, or remove llm.api_key_env if the server needs no key", v.Value)}
	}
	cfg.CallTimeout = f.LLM.Timeout
	return cfg, true, nil
}

// locate turns an error of llm.ConfigFromEnv about a value the file gave
// into an *Error at that value.
func (f *File) locate(err error, env func(string) string) error {
	var ce *llm.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	fromFile := func(k string) bool { return env(k) == "" }
	both := "set both llm.base_url and llm.model (or JUDGE_LLM_BASE_URL and JUDGE_LLM_MODEL) to use a model, or neither"
	baseSet := env(llm.EnvBaseURL) != "" || f.LLM.BaseURL.Set()
	modelSet := env(llm.EnvModel) != "" || f.LLM.Model.Set()
	switch {
	case !baseSet && fromFile(llm.EnvModel):
		return &Error{File: f.Path, Pos: f.LLM.Model.Pos, Msg: "llm.model is set, but no base URL is: " + both}
	case !baseSet:
		return fmt.Errorf("%s is set, but no base URL is (neither %s nor llm.base_url in %s): %s", llm.EnvModel, llm.EnvBaseURL, f.Path, both)
	case !modelSet && fromFile(llm.EnvBaseURL):
		return &Error{File: f.Path, Pos: f.LLM.BaseURL.Pos, Msg: "llm.base_url is set, but no model is: " + both}
	case !modelSet:
		return fmt.Errorf("%s is set, but no model is (neither %s nor llm.model in %s): %s", llm.EnvBaseURL, llm.EnvModel, f.Path, both)
	case ce.Field == llm.EnvBaseURL && fromFile(llm.EnvBaseURL):
		return &Error{File: f.Path, Pos: f.LLM.BaseURL.Pos, Msg: "llm.base_url: " + ce.Msg, Err: err}
	case ce.Field == llm.EnvCacheDir && fromFile(llm.EnvCacheDir):
		return &Error{File: f.Path, Pos: f.LLM.CacheDir.Pos, Msg: "llm.cache_dir: " + ce.Msg, Err: err}
	}
	return err
}

// KeyNotSent returns a note, for stderr, when the file gives a key that
// [File.LLMConfig] does not send because JUDGE_LLM_BASE_URL names the server
// and JUDGE_LLM_API_KEY gives no key; "" otherwise (and for a nil f).
func (f *File) KeyNotSent(getenv func(string) string) string {
	if f == nil || !f.LLM.APIKey.Set() && !f.LLM.APIKeyEnv.Set() {
		return ""
	}
	if strings.TrimSpace(getenv(llm.EnvBaseURL)) == "" || strings.TrimSpace(getenv(llm.EnvAPIKey)) != "" {
		return ""
	}
	key, pos := "llm.api_key", f.LLM.APIKey.Pos
	if f.LLM.APIKeyEnv.Set() {
		key, pos = "llm.api_key_env", f.LLM.APIKeyEnv.Pos
	}
	return fmt.Sprintf("%s:%d:%d: %s is not used: %s names another server than the file's, and the file's key goes only to its own; set %s if that server needs a key",
		f.Path, pos.Line, pos.Col, key, llm.EnvBaseURL, llm.EnvAPIKey)
}
