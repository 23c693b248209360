package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/result"
)

// TestBinaryDiskCache runs the judge binary twice on the same question,
// each run its own process, with a cache directory set by
// JUDGE_LLM_CACHE_DIR or by the config file's llm.cache_dir: the second run
// asks the model nothing and reports no tokens, with the same verdict, and
// the API key the server needs is not in the entry.
func TestBinaryDiskCache(t *testing.T) {
	t.Parallel()
	const apiKey = "sk-judge-cache-test-key"
	tests := []struct {
		name string
		// setup returns the arguments and variables of both runs, and the
		// directory the cache must end up in.
		setup func(t *testing.T, url string) (args, env []string, cacheDir string)
	}{
		{"JUDGE_LLM_CACHE_DIR", func(t *testing.T, url string) ([]string, []string, string) {
			dir := filepath.Join(t.TempDir(), "judge-cache")
			return nil, []string{llm.EnvBaseURL + "=" + url, llm.EnvModel + "=" + llmtest.Model, llm.EnvAPIKey + "=" + apiKey, llm.EnvCacheDir + "=" + dir}, dir
		}},
		{"llm.cache_dir, relative to the config file", func(t *testing.T, url string) ([]string, []string, string) {
			path := writeConfig(t, modelConfig(url, llmtest.Model, apiKey)+"  cache_dir: .judge-cache\n", 0o600)
			return []string{"--config", path}, nil, filepath.Join(filepath.Dir(path), ".judge-cache")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakeModel(t, llmtest.Reply{Fixture: "criteria_met"})
			srv.APIKey = apiKey
			args, env, cacheDir := tt.setup(t, srv.URL)
			dir := writeFiles(t, map[string]string{"out.json": sortOutput})
			args = append(args, "validate", filepath.Join(dir, "out.json"), "--criteria", "Code implements sorting", "--format", "json")
			for i, wantTokens := range []int64{443, 0} {
				res := runJudgeEnv(t, env, args...)
				var r result.ValidationResult
				if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
					t.Fatalf("run %d: exit %d, %v\n%s%s", i, res.code, err, res.stdout, res.stderr)
				}
				var tokens int64
				if r.Metadata.TokenUsage != nil {
					tokens = r.Metadata.TokenUsage.TotalTokens
				}
				if res.code != 0 || !r.Valid || len(r.PassedCriteria) != 1 || tokens != wantTokens {
					t.Errorf("run %d: exit %d, %d tokens (want %d), got %+v\n%s", i, res.code, tokens, wantTokens, r, res.stderr)
				}
				if res.stderr != "" {
					t.Errorf("run %d wrote to stderr: %s", i, res.stderr)
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("after run %d: %d model calls, want 1", i, n)
				}
			}
			entries, err := filepath.Glob(filepath.Join(cacheDir, "*.json"))
			if err != nil || len(entries) != 1 {
				t.Fatalf("the cache holds %v (%v), want one entry", entries, err)
			}
			if fi, err := os.Stat(entries[0]); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("the entry: %v, %v; want mode 0600", fi.Mode(), err)
			}
			if b, err := os.ReadFile(entries[0]); err != nil || strings.Contains(string(b), apiKey) {
				t.Errorf("the entry (%v) holds the API key or cannot be read:\n%s", err, b)
			}
		})
	}
}

// TestBinaryDiskCacheNotADirectory checks that a cache directory that is a
// regular file is bad input, named where it was given.
func TestBinaryDiskCacheNotADirectory(t *testing.T) {
	t.Parallel()
	srv := fakeModel(t)
	dir := writeFiles(t, map[string]string{"out.json": sortOutput, "not-a-dir": "x"})
	file := filepath.Join(dir, "not-a-dir")
	path := writeConfig(t, modelConfig(srv.URL, llmtest.Model, "")+"  cache_dir: "+file+"\n", 0o600)
	tests := []struct {
		name    string
		args    []string
		env     []string
		wantErr string
	}{
		{"JUDGE_LLM_CACHE_DIR", nil, []string{llm.EnvBaseURL + "=" + srv.URL, llm.EnvModel + "=" + llmtest.Model, llm.EnvCacheDir + "=" + file},
			`judge: llm: JUDGE_LLM_CACHE_DIR: "` + file + `" is not a directory`},
		{"llm.cache_dir", []string{"--config", path}, nil,
			"judge: " + path + `:6:14: llm.cache_dir: "` + file + `" is not a directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append(tt.args, "validate", filepath.Join(dir, "out.json"), "--criteria", "Code implements sorting")
			res := runJudgeEnv(t, tt.env, args...)
			if res.code != 2 || !strings.Contains(res.stderr, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 with %q", res.code, res.stderr, tt.wantErr)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("got %d model calls, want none", n)
	}
}
