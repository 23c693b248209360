package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/llm"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		wantErr string // "LINE:COL: message part"; "" = no error
		check   func(t *testing.T, f *File)
	}{
		{
			name: "valid: every key",
			src: `# judge's config
llm:
  base_url: http://127.0.0.1:11434/v1
  model: "qwen2.5:7b"
  api_key_env: OLLAMA_KEY
  timeout: 30s
serve:
  addr: 127.0.0.1:8080
  schemas: schemas
  sources: /srv/sources
  tools: [tools, /opt/tools]
`,
			check: func(t *testing.T, f *File) {
				l := f.LLM
				if l.BaseURL.Value != "http://127.0.0.1:11434/v1" || l.BaseURL.Pos != (Pos{3, 13}) ||
					l.Model.Value != "qwen2.5:7b" || l.APIKeyEnv.Value != "OLLAMA_KEY" || l.APIKey.Set() ||
					l.Timeout != 30*time.Second || l.TimeoutPos != (Pos{6, 12}) {
					t.Errorf("llm: got %+v", l)
				}
				s := f.Serve
				if s.Addr.Value != "127.0.0.1:8080" || s.Schemas.Value != filepath.Join("conf", "schemas") ||
					s.Sources.Value != "/srv/sources" || len(s.Tools) != 2 ||
					s.Tools[0].Value != filepath.Join("conf", "tools") || s.Tools[1].Value != "/opt/tools" {
					t.Errorf("serve: got %+v", s)
				}
			},
		},
		{
			name: "one tools directory as a string",
			src:  "serve:\n  tools: tools\n",
			check: func(t *testing.T, f *File) {
				if len(f.Serve.Tools) != 1 || f.Serve.Tools[0].Value != filepath.Join("conf", "tools") {
					t.Errorf("got %+v", f.Serve.Tools)
				}
			},
		},
		{
			name: "empty file",
			src:  "",
			check: func(t *testing.T, f *File) {
				if f.LLM.BaseURL.Set() || f.LLM.Model.Set() || f.Serve.Addr.Set() {
					t.Errorf("got %+v", f)
				}
			},
		},
		{name: "comments only", src: "# nothing yet\n\n# really\n"},
		{name: "empty sections", src: "llm:\nserve:\n"},
		{name: "a bare document marker", src: "---\n"},
		{name: "unknown top-level key", src: "llm:\n  model: m\nmodel: m\n", wantErr: `3:1: unknown key "model" in the file; the keys are gateway, llm, registry, serve`},
		{
			name: "registry declarations",
			src: `registry:
  primitives: ["@lilux", gpu]
  types:
    mcp: {base: mcp_tool}
    graph:
      base: script
      executor: required
      requires: [start]
  fields: [env_config, anchor]
`,
			check: func(t *testing.T, f *File) {
				r := f.Registry
				if r.Empty() || len(r.Primitives) != 2 || r.Primitives[0].Value != "lilux" || r.Primitives[1].Value != "gpu" ||
					len(r.Fields) != 2 || r.Fields[1].Value != "anchor" || r.Fields[1].Pos != (Pos{9, 24}) {
					t.Errorf("primitives and fields: got %+v", r)
				}
				if len(r.Types) != 2 || r.Types[0].Name.Value != "mcp" || r.Types[0].Base.Value != "mcp_tool" || r.Types[0].Executor.Set() ||
					r.Types[1].Name.Value != "graph" || r.Types[1].Base.Pos != (Pos{6, 13}) || r.Types[1].Executor.Value != "required" ||
					len(r.Types[1].Requires) != 1 || r.Types[1].Requires[0].Value != "start" {
					t.Errorf("types: got %+v", r.Types)
				}
			},
		},
		{name: "empty registry", src: "registry:\n  types:\n", check: func(t *testing.T, f *File) {
			if !f.Registry.Empty() {
				t.Errorf("got %+v", f.Registry)
			}
		}},
		{name: "registry required not a list", src: "registry:\n  required: version\n", wantErr: `2:13: registry.required is a string, not a list of names`},
		{name: "registry unknown key", src: "registry:\n  tpyes: {}\n", wantErr: `2:3: unknown key "tpyes" in registry; the keys are data, fields, primitives, required, types`},
		{name: "registry primitives a string", src: "registry:\n  primitives: gpu\n", wantErr: `2:15: registry.primitives is a string, not a list of names`},
		{name: "registry primitive empty", src: "registry:\n  primitives: [\"@\"]\n", wantErr: `2:16: registry.primitives[0] is empty`},
		{name: "registry field a number", src: "registry:\n  fields: [a, 3]\n", wantErr: `2:15: registry.fields[1] is a number`},
		{name: "registry types a list", src: "registry:\n  types: [mcp]\n", wantErr: `2:10: registry.types is a list, not a mapping`},
		{name: "registry type without base", src: "registry:\n  types:\n    mcp: {executor: none}\n", wantErr: `3:5: type "mcp" of registry.types has no base`},
		{name: "registry type a string", src: "registry:\n  types:\n    mcp: mcp_tool\n", wantErr: `3:10: registry.types.mcp is a string, not a mapping`},
		{name: "registry type unknown key", src: "registry:\n  types:\n    mcp: {base: mcp_tool, kind: x}\n", wantErr: `3:27: unknown key "kind" in registry.types.mcp; the keys are base, executor, requires`},
		{name: "registry requires a string", src: "registry:\n  types:\n    g: {base: script, requires: start}\n", wantErr: `registry.types.g.requires is a string, not a list of names`},
		{name: "registry type twice", src: "registry:\n  types:\n    mcp: {base: mcp_tool}\n    mcp: {base: config}\n", wantErr: `4:5: YAML syntax error`},
		{name: "unknown llm key", src: "llm:\n  base_url: http://x/v1\n  modle: m\n", wantErr: `3:3: unknown key "modle" in llm; the keys are api_key, api_key_env, base_url, cache_dir, model, timeout`},
		{name: "unknown serve key", src: "serve:\n  port: 80\n", wantErr: `2:3: unknown key "port" in serve`},
		{name: "gateway compact budget", src: "gateway:\n  compact_budget: 8_000\n", check: func(t *testing.T, f *File) {
			if b := f.Gateway.CompactBudget; b.Value != 8000 || b.Pos != (Pos{2, 19}) {
				t.Errorf("compact_budget %+v, want 8000 at 2:19", b)
			}
		}},
		{name: "gateway compact budget off", src: "gateway:\n  compact_budget: 0\n", check: func(t *testing.T, f *File) {
			if b := f.Gateway.CompactBudget; !b.Set() || b.Value != 0 {
				t.Errorf("compact_budget %+v, want 0 given", b)
			}
		}},
		{name: "gateway compact budget negative", src: "gateway:\n  compact_budget: -1\n", wantErr: `2:19: gateway.compact_budget -1 is not a non-negative integer`},
		{name: "gateway compact budget a string", src: "gateway:\n  compact_budget: big\n", wantErr: `2:19: gateway.compact_budget is a string, not a non-negative integer`},
		{name: "unknown gateway key", src: "gateway:\n  budget: 80\n", wantErr: `2:3: unknown key "budget" in gateway; the keys are compact_budget`},
		{name: "duplicate key", src: "llm:\n  model: a\n  model: b\n", wantErr: `3:3: YAML syntax error: mapping key "model" already defined at [2:3]`},
		{name: "model a number", src: "llm:\n  model: 7\n", wantErr: `2:10: llm.model is a number, not a string; quote it`},
		{name: "base_url a list", src: "llm:\n  base_url: [a]\n", wantErr: `2:13: llm.base_url is a list, not a string`},
		{name: "api_key a boolean", src: "llm:\n  api_key: true\n", wantErr: `2:12: llm.api_key is a boolean`},
		{name: "llm a string", src: "llm: ollama\n", wantErr: `1:6: llm is a string, not a mapping`},
		{name: "top a list", src: "- llm\n", wantErr: `1:1: the file is a list, not a mapping`},
		{name: "empty value", src: "llm:\n  model: \"\"\n", wantErr: `2:10: llm.model is empty`},
		{name: "null value", src: "llm:\n  model:\n", wantErr: `llm.model is null, not a string`},
		{name: "bad timeout", src: "llm:\n  timeout: soon\n", wantErr: `2:12: llm.timeout "soon" is not a positive duration`},
		{name: "byte-order mark", src: "\xef\xbb\xbfllm:\n  model: m\n", check: func(t *testing.T, f *File) {
			if f.LLM.Model.Value != "m" || f.LLM.Model.Pos != (Pos{2, 10}) {
				t.Errorf("model %+v, want m at 2:10", f.LLM.Model)
			}
		}},
		{name: "timeout a number", src: "llm:\n  timeout: 30\n", wantErr: `2:12: llm.timeout is a number`},
		{name: "negative timeout", src: "llm:\n  timeout: -1s\n", wantErr: `2:12: llm.timeout "-1s" is not a positive duration`},
		{name: "api_key and api_key_env", src: "llm:\n  api_key: k\n  api_key_env: K\n", wantErr: `3:16: llm.api_key_env is given with llm.api_key (line 2)`},
		{name: "api_key_env not a name", src: "llm:\n  api_key_env: sk-123\n", wantErr: `2:16: llm.api_key_env is not an environment variable's name`},
		{name: "tools of numbers", src: "serve:\n  tools: [a, 1]\n", wantErr: `2:14: serve.tools[1] is a number`},
		{
			name: "limits under load",
			src:  "serve:\n  cache_bytes: 268_435_456\n  max_in_flight: 16\n  max_in_flight_bytes: 20971520\n  max_body_bytes: 0x100000\n  read_timeout: 5s\n",
			check: func(t *testing.T, f *File) {
				s := f.Serve
				if s.CacheBytes.Value != 256<<20 || s.CacheBytes.Pos != (Pos{2, 16}) || s.MaxInFlight.Value != 16 ||
					s.MaxInFlightBytes.Value != 20<<20 || s.MaxBodyBytes.Value != 1<<20 || s.ReadTimeout.Value != 5*time.Second {
					t.Errorf("serve: got %+v", s)
				}
			},
		},
		{name: "cache_bytes a string", src: "serve:\n  cache_bytes: 256MB\n", wantErr: `2:16: serve.cache_bytes is a string, not a positive integer`},
		{name: "max_in_flight zero", src: "serve:\n  max_in_flight: 0\n", wantErr: `2:18: serve.max_in_flight 0 is not a positive integer`},
		{name: "read_timeout not a duration", src: "serve:\n  read_timeout: 5\n", wantErr: `2:17: serve.read_timeout is a number`},
		{name: "no_ui", src: "serve:\n  no_ui: true\n", check: func(t *testing.T, f *File) {
			if !f.Serve.NoUI.Value || f.Serve.NoUI.Pos != (Pos{2, 10}) {
				t.Errorf("no_ui %+v, want true at 2:10", f.Serve.NoUI)
			}
		}},
		{name: "no_ui quoted", src: "serve:\n  no_ui: \"yes\"\n", wantErr: `2:10: serve.no_ui is a string, not a boolean (true or false, not quoted)`},
		{name: "anchor", src: "llm:\n  model: &m x\n", wantErr: `2:10: anchors and aliases are not allowed`},
		{name: "tag", src: "llm:\n  model: !!str x\n", wantErr: `2:10: tags are not allowed`},
		{name: "two documents", src: "llm:\n  model: a\n---\nllm:\n  model: b\n", wantErr: `4:4: the file holds more than one YAML document`},
		{name: "syntax error", src: "llm:\n  model: [a\n", wantErr: `YAML syntax error`},
		{name: "tab indentation", src: "llm:\n\tmodel: a\n", wantErr: `YAML syntax error`},
		{name: "huge file", src: "# " + strings.Repeat("x", MaxBytes) + "\n", wantErr: `1:1: the file is larger than 65536 bytes`},
		{name: "deep brackets", src: "llm:\n  model: " + strings.Repeat("[", 20), wantErr: `2:18: brackets nest deeper than 8 levels`},
		{name: "deep dashes", src: strings.Repeat("- ", 20) + "a\n", wantErr: `1:17: a line opens more than 8 nested lists`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			name := filepath.Join("conf", "judge.yaml")
			f, err := Decode(name, []byte(tt.src))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("got error %v", err)
				}
				if f == nil {
					t.Fatal("got a nil File and no error")
				}
				if tt.check != nil {
					tt.check(t, f)
				}
				return
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("got %v (%T), want an *Error", err, err)
			}
			if !strings.HasPrefix(err.Error(), name+":") || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got %q, want %s:%s", err, name, tt.wantErr)
			}
			if strings.Contains(err.Error(), "sk-") {
				t.Errorf("the error repeats a key: %v", err)
			}
			if ce.Pos.Line < 1 || ce.Pos.Col < 1 {
				t.Errorf("got position %+v, want one", ce.Pos)
			}
		})
	}
}

// env is a getenv over a map.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLLMConfigPrecedence(t *testing.T) {
	t.Parallel()
	const file = `llm:
  base_url: http://file.example/v1
  model: file-model
  api_key: file-key
  timeout: 5s
`
	tests := []struct {
		name    string
		src     string // "" = no file at all
		env     map[string]string
		want    llm.Config
		ok      bool
		wantErr string
	}{
		{name: "no file, no env: no model"},
		{name: "env alone", env: map[string]string{llm.EnvBaseURL: "http://env/v1", llm.EnvModel: "env-model"},
			want: llm.Config{BaseURL: "http://env/v1", Model: "env-model"}, ok: true},
		{name: "file alone", src: file,
			want: llm.Config{BaseURL: "http://file.example/v1", Model: "file-model", APIKey: "file-key", CallTimeout: 5 * time.Second}, ok: true},
		{name: "env model over the file's", src: file, env: map[string]string{llm.EnvModel: "env-model"},
			want: llm.Config{BaseURL: "http://file.example/v1", Model: "env-model", APIKey: "file-key", CallTimeout: 5 * time.Second}, ok: true},
		{name: "env key over the file's", src: file, env: map[string]string{llm.EnvAPIKey: "env-key"},
			want: llm.Config{BaseURL: "http://file.example/v1", Model: "file-model", APIKey: "env-key", CallTimeout: 5 * time.Second}, ok: true},
		{name: "env base URL: the file's key is not sent to it", src: file, env: map[string]string{llm.EnvBaseURL: "http://other/v1"},
			want: llm.Config{BaseURL: "http://other/v1", Model: "file-model", CallTimeout: 5 * time.Second}, ok: true},
		{name: "api_key_env", src: "llm:\n  base_url: http://f/v1\n  model: m\n  api_key_env: MY_KEY\n", env: map[string]string{"MY_KEY": " k1 "},
			want: llm.Config{BaseURL: "http://f/v1", Model: "m", APIKey: "k1"}, ok: true},
		{name: "api_key_env unset", src: "llm:\n  base_url: http://f/v1\n  model: m\n  api_key_env: MY_KEY\n",
			wantErr: "judge.yaml:4:16: llm.api_key_env names MY_KEY, which is not set or empty"},
		{name: "api_key_env unset but JUDGE_LLM_API_KEY set", src: "llm:\n  base_url: http://f/v1\n  model: m\n  api_key_env: MY_KEY\n",
			env: map[string]string{llm.EnvAPIKey: "k2"}, want: llm.Config{BaseURL: "http://f/v1", Model: "m", APIKey: "k2"}, ok: true},
		{name: "a key only: no model", src: "llm:\n  api_key: k\n"},
		{name: "file model, no base URL", src: "llm:\n  model: m\n",
			wantErr: "judge.yaml:2:10: llm.model is set, but no base URL is"},
		{name: "file base URL, no model", src: "llm:\n  base_url: http://f/v1\n",
			wantErr: "judge.yaml:2:13: llm.base_url is set, but no model is"},
		{name: "env model, no base URL anywhere", src: "serve:\n  addr: :1\n", env: map[string]string{llm.EnvModel: "m"},
			wantErr: "JUDGE_LLM_MODEL is set, but no base URL is (neither JUDGE_LLM_BASE_URL nor llm.base_url in judge.yaml)"},
		{name: "file base URL not http", src: "llm:\n  base_url: ftp://f/v1\n  model: m\n",
			wantErr: `judge.yaml:2:13: llm.base_url: "ftp://f/v1" is not an http or https URL`},
		{name: "env base URL not http, over a good file one", src: file, env: map[string]string{llm.EnvBaseURL: "nope"},
			wantErr: `llm: JUDGE_LLM_BASE_URL: "nope" is not an http or https URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var f *File
			if tt.src != "" {
				var err error
				if f, err = Decode("judge.yaml", []byte(tt.src)); err != nil {
					t.Fatal(err)
				}
			}
			got, ok, err := f.LLMConfig(env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.ok || got != tt.want {
				t.Errorf("got %+v ok=%v, want %+v ok=%v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestKeyNotSent(t *testing.T) {
	t.Parallel()
	f, err := Decode("judge.yaml", []byte("llm:\n  base_url: http://f/v1\n  model: m\n  api_key: k\n"))
	if err != nil {
		t.Fatal(err)
	}
	other := map[string]string{llm.EnvBaseURL: "http://other/v1"}
	if got := f.KeyNotSent(env(other)); !strings.HasPrefix(got, "judge.yaml:4:12: llm.api_key is not used: JUDGE_LLM_BASE_URL names another server") {
		t.Errorf("got %q", got)
	}
	for _, e := range []map[string]string{nil, {llm.EnvModel: "x"}, {llm.EnvBaseURL: "http://other/v1", llm.EnvAPIKey: "k2"}} {
		if got := f.KeyNotSent(env(e)); got != "" {
			t.Errorf("env %v: got %q, want none", e, got)
		}
	}
	var none *File
	if got := none.KeyNotSent(env(other)); got != "" {
		t.Errorf("nil File: got %q", got)
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	xdg := t.TempDir()
	def := filepath.Join(xdg, "judge", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(def, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		flag  string
		env   map[string]string
		want  string
		named bool
	}{
		{name: "flag over everything", flag: "a.yaml", env: map[string]string{EnvConfig: "b.yaml", "XDG_CONFIG_HOME": xdg}, want: "a.yaml", named: true},
		{name: "JUDGE_CONFIG over the default", env: map[string]string{EnvConfig: "b.yaml", "XDG_CONFIG_HOME": xdg}, want: "b.yaml", named: true},
		{name: "the default file, when it exists", env: map[string]string{"XDG_CONFIG_HOME": xdg}, want: def},
		{name: "no default file: none", env: map[string]string{"HOME": home}},
		{name: "a relative XDG_CONFIG_HOME is ignored", env: map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": home}},
		{name: "no environment: none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, named := Find(tt.flag, env(tt.env))
			if got != tt.want || named != tt.named {
				t.Errorf("got %q named=%v, want %q named=%v", got, named, tt.want, tt.named)
			}
		})
	}
	if got := DefaultPath(env(map[string]string{"HOME": home})); got != filepath.Join(home, ".config", "judge", "config.yaml") {
		t.Errorf("DefaultPath from HOME: got %q", got)
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return p
	}
	keyFile := "llm:\n  base_url: http://f/v1\n  model: m\n  api_key: sk-secret\n"

	t.Run("missing", func(t *testing.T) {
		_, err := Load(filepath.Join(dir, "none.yaml"))
		if err == nil || !strings.Contains(err.Error(), "none.yaml: no such config file") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("a directory", func(t *testing.T) {
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), "is not a regular file") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("huge", func(t *testing.T) {
		p := write("huge.yaml", strings.Repeat("#\n", MaxBytes), 0o600)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), "huge.yaml:1:1: the file is larger than 65536 bytes") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("a key readable by others: a warning", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no permission bits on Windows")
		}
		p := write("open.yaml", keyFile, 0o644)
		f, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "permissions 0644 let others read it; run chmod 600") ||
			strings.Contains(f.Warnings[0], "sk-secret") {
			t.Errorf("got warnings %q", f.Warnings)
		}
	})
	t.Run("a key readable by its owner only: no warning", func(t *testing.T) {
		p := write("closed.yaml", keyFile, 0o600)
		f, err := Load(p)
		if err != nil || len(f.Warnings) != 0 {
			t.Errorf("got %v, warnings %q", err, f.Warnings)
		}
	})
	t.Run("no key, readable by others: no warning", func(t *testing.T) {
		p := write("nokey.yaml", "llm:\n  base_url: http://f/v1\n  model: m\n  api_key_env: K\n", 0o644)
		f, err := Load(p)
		if err != nil || len(f.Warnings) != 0 {
			t.Errorf("got %v, warnings %q", err, f.Warnings)
		}
	})
}
