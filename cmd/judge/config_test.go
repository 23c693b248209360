package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/config"
	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/result"
)

// writeConfig writes a config file with mode into a new directory and
// returns its path.
func writeConfig(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "judge.yaml")
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return p
}

// modelConfig is a config file whose llm section names the fake at url.
func modelConfig(url, model, key string) string {
	s := fmt.Sprintf("# the fake model\nllm:\n  base_url: %s\n  model: %s\n  timeout: 20s\n", url, model)
	if key != "" {
		s += "  api_key: " + key + "\n"
	}
	return s
}

// TestValidateConfig runs judge validate with a plain-language criterion
// and the model configured by a config file, through runValidate.
func TestValidateConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// file is the config file's content; URL stands for the fake's URL.
		file string
		mode os.FileMode
		// env is the environment; CONFIG stands for the file's path, URL
		// for the fake's.
		env        map[string]string
		byFlag     bool   // give the file as --config (else only env names it)
		serverKey  string // the key the fake requires
		calls      int    // model calls expected
		code       int
		wantErr    string // in the error; FILE stands for the file's path
		wantStderr string // in the warnings
		decided    bool   // the criterion was judged by the model
	}{
		{
			name: "--config alone configures the model", file: modelConfig("URL", llmtest.Model, "sk-file"), mode: 0o600,
			byFlag: true, serverKey: "sk-file", calls: 1, code: 0, decided: true,
		},
		{
			name: "JUDGE_CONFIG names the file", file: modelConfig("URL", llmtest.Model, ""), mode: 0o600,
			env: map[string]string{config.EnvConfig: "CONFIG"}, calls: 1, code: 0, decided: true,
		},
		{
			name: "the default file under XDG_CONFIG_HOME", file: modelConfig("URL", llmtest.Model, ""), mode: 0o600,
			env: map[string]string{"XDG_CONFIG_HOME": "XDG"}, calls: 1, code: 0, decided: true,
		},
		{
			name: "JUDGE_LLM_MODEL overrides the file's model", file: modelConfig("URL", "file-model", ""), mode: 0o600,
			byFlag: true, env: map[string]string{llm.EnvModel: llmtest.Model}, calls: 1, code: 0, decided: true,
		},
		{
			name: "JUDGE_LLM_API_KEY overrides the file's key", file: modelConfig("URL", llmtest.Model, "sk-file"), mode: 0o600,
			byFlag: true, env: map[string]string{llm.EnvAPIKey: "sk-env"}, serverKey: "sk-env", calls: 1, code: 0, decided: true,
		},
		{
			name: "api_key_env names the key's variable", file: "llm:\n  base_url: URL\n  model: " + llmtest.Model + "\n  api_key_env: MY_LLM_KEY\n", mode: 0o644,
			byFlag: true, env: map[string]string{"MY_LLM_KEY": "sk-var"}, serverKey: "sk-var", calls: 1, code: 0, decided: true,
		},
		{
			name: "a key readable by others: a warning, and it still runs", file: modelConfig("URL", llmtest.Model, "sk-file"), mode: 0o644,
			byFlag: true, serverKey: "sk-file", calls: 1, code: 0, decided: true,
			wantStderr: "judge: warning: FILE: the file holds llm.api_key and its permissions 0644 let others read it",
		},
		{
			name: "JUDGE_LLM_BASE_URL overrides the file's: the file's key is not sent, and a warning says so",
			file: modelConfig("http://file.invalid/v1", llmtest.Model, "sk-file"), mode: 0o600,
			byFlag: true, env: map[string]string{llm.EnvBaseURL: "URL"}, calls: 1, code: 0, decided: true,
			wantStderr: "judge: warning: FILE:6:12: llm.api_key is not used: JUDGE_LLM_BASE_URL names another server",
		},
		{
			name: "no file anywhere: no model, the criterion not checked", env: map[string]string{"HOME": "EMPTY"},
			calls: 0, code: 1, wantErr: "confidence 0.00 is below --min-confidence",
		},
		{
			name: "--config names a missing file: bad input", byFlag: true,
			code: 2, wantErr: "FILE: no such config file (named by --config)",
		},
		{
			name: "JUDGE_CONFIG names a missing file: bad input", env: map[string]string{config.EnvConfig: "CONFIG"},
			code: 2, wantErr: "FILE: no such config file (named by JUDGE_CONFIG)",
		},
		{
			name: "an unknown key: bad input at its line and column", file: "llm:\n  base_url: URL\n  model_name: m\n", mode: 0o600,
			byFlag: true, code: 2, wantErr: `FILE:3:3: unknown key "model_name" in llm`,
		},
		{
			name: "a malformed default file: bad input", file: "llm: [\n", mode: 0o600,
			env: map[string]string{"XDG_CONFIG_HOME": "XDG"}, code: 2, wantErr: "YAML syntax error",
		},
		{
			name: "a base URL without a model: bad input at the URL", file: "llm:\n  base_url: URL\n", mode: 0o600,
			byFlag: true, code: 2, wantErr: "FILE:2:13: llm.base_url is set, but no model is",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var replies []llmtest.Reply
			for range tt.calls {
				replies = append(replies, llmtest.Reply{Fixture: "criteria_met"})
			}
			srv := fakeModel(t, replies...)
			srv.APIKey = tt.serverKey

			dir := t.TempDir()
			path := filepath.Join(dir, "judge.yaml")
			xdg := filepath.Join(dir, "xdg")
			if tt.env["XDG_CONFIG_HOME"] != "" {
				path = filepath.Join(xdg, "judge", "config.yaml")
			}
			if tt.file != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(strings.ReplaceAll(tt.file, "URL", srv.URL)), tt.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.mode); err != nil {
					t.Fatal(err)
				}
			}
			env := map[string]string{}
			for k, v := range tt.env {
				v = strings.NewReplacer("CONFIG", path, "XDG", xdg, "EMPTY", dir, "URL", srv.URL).Replace(v)
				env[k] = v
			}

			params := newValidateParams()
			params.getenv = func(k string) string { return env[k] }
			if tt.byFlag {
				params.config = path
			}
			var stderr bytes.Buffer
			params.stderr = &stderr
			params.minConf = DefaultMinConfidence // the flag's default
			params.criteria = []string{"Code implements sorting"}
			out := filepath.Join(dir, "out.json")
			if err := os.WriteFile(out, []byte(sortOutput), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout bytes.Buffer
			err := runValidate(context.Background(), params, []string{out}, &stdout)
			if got := exitCode(err); got != tt.code {
				t.Fatalf("got exit %d (%v), want %d\n%s", got, err, tt.code, stdout.String())
			}
			if want := strings.ReplaceAll(tt.wantErr, "FILE", path); want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
				t.Errorf("got error %v, want %q", err, want)
			}
			if want := strings.ReplaceAll(tt.wantStderr, "FILE", path); want == "" && stderr.Len() > 0 || !strings.Contains(stderr.String(), want) {
				if runtime.GOOS != "windows" {
					t.Errorf("stderr %q, want %q", stderr.String(), want)
				}
			}
			if strings.Contains(stderr.String(), "sk-") {
				t.Errorf("stderr shows a key: %q", stderr.String())
			}
			if n := len(srv.Requests()); n != tt.calls {
				t.Errorf("got %d model calls, want %d", n, tt.calls)
			}
			if tt.code == 2 {
				return
			}
			var r result.ValidationResult
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
				t.Fatalf("%v\n%s", err, stdout.String())
			}
			if tt.decided && (r.Metadata.Model != llmtest.Model || len(r.PassedCriteria) != 1 || r.Confidence != 0.9) {
				t.Errorf("not judged by the configured model: %+v", r)
			}
			if !tt.decided && (r.Metadata.Model != "deterministic" || len(r.PassedCriteria) != 0) {
				t.Errorf("judged without a model: %+v", r)
			}
		})
	}
}

// TestServeConfig runs judge serve with its address and model from a
// config file, through runServe, and validates one output.
func TestServeConfig(t *testing.T) {
	t.Parallel()
	srv := fakeModel(t, llmtest.Reply{Fixture: "criteria_met"})
	path := writeConfig(t, modelConfig(srv.URL, llmtest.Model, "")+"serve:\n  addr: 127.0.0.1:0\n  sources: sources\n", 0o600)
	if err := os.Mkdir(filepath.Join(filepath.Dir(path), "sources"), 0o755); err != nil {
		t.Fatal(err)
	}
	params := newServeParams()
	params.config = path
	params.getenv = func(string) string { return "" }
	rec := serveInProcess(t, params, nil)
	if rec.Model != llmtest.Model {
		t.Errorf("logged model %q, want %q", rec.Model, llmtest.Model)
	}
	base := rec.URL
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Errorf("listening at %q, want the file's 127.0.0.1:0", base)
	}
	body := `{"output": ` + sortOutput + `, "acceptance_criteria": ["Code implements sorting"]}`
	resp, err := http.Post(base+"/validate", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r result.ValidationResult
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /validate: %d %v", resp.StatusCode, err)
	}
	if r.Metadata.Model != llmtest.Model || len(r.PassedCriteria) != 1 {
		t.Errorf("POST /validate: got %+v", r)
	}
}

func TestServeConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		file    string
		addr    string // --addr given on the command line
		wantErr string // FILE stands for the file's path
	}{
		{name: "a bad address from the file names the key", file: "serve:\n  addr: \"127.0.0.1:99999\"\n",
			wantErr: "FILE:2:9: serve.addr 127.0.0.1:99999: "},
		{name: "--addr wins over the file", file: "serve:\n  addr: \"127.0.0.1:0\"\n", addr: "127.0.0.1:99999",
			wantErr: "--addr 127.0.0.1:99999: "},
		{name: "a model without a base URL", file: "llm:\n  model: m\n",
			wantErr: "FILE:2:10: llm.model is set, but no base URL is"},
		{name: "an unknown serve key", file: "serve:\n  port: 8080\n",
			wantErr: `FILE:2:3: unknown key "port" in serve; the keys are addr, cache_bytes, max_body_bytes, max_in_flight, max_in_flight_bytes, no_ui, read_timeout, schemas, sources, tools`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeConfig(t, tt.file, 0o600)
			params := newServeParams()
			params.config = path
			params.getenv = func(string) string { return "" }
			if tt.addr != "" {
				params.addr = tt.addr
				params.changed = map[string]bool{"addr": true}
			}
			err := runServe(context.Background(), params, nil, io.Discard)
			want := strings.ReplaceAll(tt.wantErr, "FILE", path)
			if exitCode(err) != exitBadInput || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want bad input with %q", err, want)
			}
		})
	}
}

func TestServeApplyConfig(t *testing.T) {
	t.Parallel()
	f, err := config.Decode(filepath.Join("etc", "judge.yaml"), []byte("serve:\n  addr: :9090\n  schemas: s\n  sources: /src\n  tools: [t1, t2]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := newServeParams()
	p.applyConfig(f)
	if p.addr != ":9090" || p.schemasDir != filepath.Join("etc", "s") || p.sourcesDir != "/src" ||
		len(p.tools) != 2 || p.tools[1] != filepath.Join("etc", "t2") {
		t.Errorf("file over the defaults: got %+v", p)
	}
	p = newServeParams()
	p.addr, p.tools, p.schemasDir = ":7070", []string{"flag-tools"}, "flag-schemas"
	p.changed = map[string]bool{"addr": true, "tools": true, "schemas": true}
	p.applyConfig(f)
	if p.addr != ":7070" || p.schemasDir != "flag-schemas" || p.sourcesDir != "/src" || len(p.tools) != 1 || p.tools[0] != "flag-tools" {
		t.Errorf("flags over the file: got %+v", p)
	}
}

// TestBinaryConfig runs the judge binary with --config before and after
// the command's name, the model configured only in the file.
func TestBinaryConfig(t *testing.T) {
	t.Parallel()
	srv := fakeModel(t, llmtest.Reply{Fixture: "criteria_not_met"}, llmtest.Reply{Fixture: "criteria_met"})
	srv.APIKey = "sk-bin-test"
	path := writeConfig(t, modelConfig(srv.URL, llmtest.Model, "sk-bin-test"), 0o600)
	dir := writeFiles(t, map[string]string{"out.json": sortOutput})
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JUDGE_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	for i, args := range [][]string{
		{"--config", path, "validate", filepath.Join(dir, "out.json"), "--criteria", "Tests are included", "--format", "json"},
		{"validate", filepath.Join(dir, "out.json"), "--criteria", "Code implements sorting", "--config=" + path},
	} {
		res := execJudge(t, nil, env, args...)
		code := res.code
		var r result.ValidationResult
		if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
			t.Fatalf("run %d: %v\n%s%s", i, err, res.stdout, res.stderr)
		}
		switch {
		case i == 0 && (code != 1 || len(r.FailedCriteria) != 1 || r.Metadata.Model != llmtest.Model):
			t.Errorf("run %d: exit %d, got %+v\n%s", i, code, r, res.stderr)
		case i == 1 && (code != 0 || len(r.PassedCriteria) != 1 || r.Metadata.Model != llmtest.Model):
			t.Errorf("run %d: exit %d, got %+v\n%s", i, code, r, res.stderr)
		}
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("got %d model calls, want 2", n)
	}

	// A missing file named by --config: exit 2 with the path.
	res := execJudge(t, nil, env, "--config", filepath.Join(dir, "nope.yaml"), "validate", filepath.Join(dir, "out.json"))
	if res.code != 2 || !strings.Contains(res.stderr, "judge: "+filepath.Join(dir, "nope.yaml")+": no such config file (named by --config)") {
		t.Errorf("missing --config file: exit %d, stderr %q", res.code, res.stderr)
	}
}

// The serve section's limits under load reach the server: the cache
// budget shows in /metrics, the body limit refuses a larger body, and a
// flag given on the command line wins over the file.
func TestServeConfigLimits(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, "serve:\n  cache_bytes: 3_000_000\n  max_body_bytes: 1000\n  read_timeout: 2s\n  max_in_flight: 3\n", 0o600)
	params := newServeParams()
	params.addr = "127.0.0.1:0"
	params.config = path
	params.getenv = func(string) string { return "" }
	params.maxInFlight = 5
	params.changed = map[string]bool{"max-in-flight": true}
	url := serveInProcess(t, params, nil).URL

	get := func(path string) string {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if m := get("/metrics"); !strings.Contains(m, "\njudge_cache_budget_bytes 3e+06\n") {
		t.Errorf("/metrics does not show the file's cache budget:\n%s", m)
	}
	resp, err := http.Post(url+"/validate", "application/json", strings.NewReader(`{"output": "`+strings.Repeat("x", 2000)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "limit of 1000 bytes") {
		t.Errorf("a body over the file's max_body_bytes: %d %s", resp.StatusCode, b)
	}
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := newServeParams()
	p.changed = map[string]bool{"max-in-flight": true}
	p.maxInFlight = 5
	p.applyConfig(f)
	if p.maxInFlight != 5 || p.cacheBytes != 3_000_000 || p.maxBodyBytes != 1000 || p.readTimeout != 2*time.Second {
		t.Errorf("applyConfig: got %+v", p)
	}
}
