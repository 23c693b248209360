package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/llm"
)

func TestDecodeCacheDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		want    string // the resolved value
		wantErr string // "LINE:COL: message part"
	}{
		{name: "relative: against the file's directory", src: "llm:\n  cache_dir: .judge-cache\n", want: filepath.Join("conf", ".judge-cache")},
		{name: "absolute", src: "llm:\n  cache_dir: /var/cache/judge\n", want: "/var/cache/judge"},
		{name: "quoted, with spaces around", src: "llm:\n  cache_dir: \" cache \"\n", want: filepath.Join("conf", "cache")},
		{name: "a number", src: "llm:\n  cache_dir: 7\n", wantErr: "2:14: llm.cache_dir is a number, not a string; quote it"},
		{name: "a list", src: "llm:\n  cache_dir: [a, b]\n", wantErr: "2:14: llm.cache_dir is a list, not a string"},
		{name: "empty", src: "llm:\n  cache_dir: \"\"\n", wantErr: "2:14: llm.cache_dir is empty"},
		{name: "misspelt", src: "llm:\n  cachedir: x\n", wantErr: `2:3: unknown key "cachedir" in llm; the keys are api_key, api_key_env, base_url, cache_dir, model, timeout`},
		{name: "given twice", src: "llm:\n  cache_dir: a\n  cache_dir: b\n", wantErr: `3:3: YAML syntax error: mapping key "cache_dir" already defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			name := filepath.Join("conf", "judge.yaml")
			f, err := Decode(name, []byte(tt.src))
			if tt.wantErr != "" {
				var ce *Error
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), name+":"+tt.wantErr) {
					t.Errorf("got %v, want an *Error %s:%s", err, name, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := f.LLM.CacheDir; got.Value != tt.want || got.Pos != (Pos{2, 14}) {
				t.Errorf("got %+v, want %q at 2:14", got, tt.want)
			}
		})
	}
}

func TestLLMConfigCacheDir(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	const model = "llm:\n  base_url: http://f/v1\n  model: m\n"
	tests := []struct {
		name    string
		src     string
		env     map[string]string
		want    string // Config.CacheDir
		ok      bool
		wantErr string
	}{
		{name: "off by default", src: model, ok: true},
		{name: "the file's", src: model + "  cache_dir: cache\n", want: filepath.Join(tmp, "cache"), ok: true},
		{name: "the environment's over the file's", src: model + "  cache_dir: cache\n",
			env: map[string]string{llm.EnvCacheDir: "/elsewhere"}, want: "/elsewhere", ok: true},
		{name: "the environment's alone", src: model, env: map[string]string{llm.EnvCacheDir: "rel"}, want: "rel", ok: true},
		{name: "with no model it changes nothing", src: "llm:\n  cache_dir: a-file\n"},
		{name: "the file's is a regular file", src: model + "  cache_dir: a-file\n",
			wantErr: "judge.yaml:4:14: llm.cache_dir: \"" + file + "\" is not a directory"},
		{name: "the environment's is a regular file", src: model + "  cache_dir: cache\n", env: map[string]string{llm.EnvCacheDir: file},
			wantErr: "llm: JUDGE_LLM_CACHE_DIR: \"" + file + "\" is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Decode(filepath.Join(tmp, "judge.yaml"), []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := f.LLMConfig(env(tt.env))
			if tt.wantErr != "" {
				var ce *Error
				inFile := strings.HasPrefix(tt.wantErr, "judge.yaml:")
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.As(err, &ce) != inFile {
					t.Errorf("got %v (%T), want %q (located in the file: %v)", err, err, tt.wantErr, inFile)
				}
				return
			}
			if err != nil || ok != tt.ok || got.CacheDir != tt.want {
				t.Errorf("got %q ok=%v err=%v, want %q ok=%v", got.CacheDir, ok, err, tt.want, tt.ok)
			}
		})
	}
}
