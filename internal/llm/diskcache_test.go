package llm_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
)

// askSort asks sortQuestion of a client of srv whose cache directory is
// dir, and returns its one verdict and what it cost.
func askSort(t *testing.T, srv *llmtest.Server, dir string, edit func(*llm.Config)) (*llm.Verdict, llm.Usage) {
	t.Helper()
	c := newClient(t, srv, func(c *llm.Config) {
		c.CacheDir = dir
		if edit != nil {
			edit(c)
		}
	})
	res, usage := c.JudgeCriteria(context.Background(), sortQuestion)
	if res[0].Err != nil {
		t.Fatalf("got %v", res[0].Err)
	}
	return res[0].Verdict, usage
}

// entryFile returns the one entry of the cache directory dir.
func entryFile(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("got entries %v (%v), want one", files, err)
	}
	return files[0]
}

// rewrite edits the entry file with edit, keeping its content's digest
// right when redigest is true.
func rewrite(t *testing.T, file string, redigest bool, edit func(e map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var e map[string]any
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("the entry is not JSON: %v\n%s", err, b)
	}
	edit(e)
	if redigest {
		h := sha256.Sum256([]byte(e["content"].(string)))
		e["sha256"] = hex.EncodeToString(h[:])
	}
	if b, err = json.Marshal(e); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDiskCache answers sortQuestion with one client, damages the entry it
// wrote, and asks again with a second client of the same directory: a good
// entry answers without a call; any other is asked again, and the fresh
// answer replaces it (a third client reads it back).
func TestDiskCache(t *testing.T) {
	t.Parallel()
	setContent := func(s string) func(map[string]any) { return func(e map[string]any) { e["content"] = s } }
	tests := []struct {
		name   string
		damage func(t *testing.T, file string)
		// asked is true when the second client must ask the model.
		asked bool
	}{
		{name: "a good entry answers without a call"},
		{name: "an empty file", asked: true, damage: func(t *testing.T, file string) {
			if err := os.Truncate(file, 0); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a truncated entry", asked: true, damage: func(t *testing.T, file string) {
			fi, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(file, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "not JSON", asked: true, damage: func(t *testing.T, file string) {
			if err := os.WriteFile(file, []byte("met, trust me"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a good entry padded past the size cap", asked: true, damage: func(t *testing.T, file string) {
			f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(strings.Repeat(" ", llm.MaxCacheEntryBytes)); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "two objects", asked: true, damage: func(t *testing.T, file string) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, append(b, b...), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "content tampered, digest left", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, false, func(e map[string]any) {
				e["content"] = strings.Replace(e["content"].(string), `"met"`, `"not_met"`, 1)
			})
		}},
		{name: "content off the schema, digest right", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, true, setContent(`{"verdicts":"all met"}`))
		}},
		{name: "content not JSON, digest right", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, true, setContent(`The output meets the criterion.`))
		}},
		{name: "content on the schema but missing the criterion asked", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, true, setContent(`{"verdicts":[{"id":7,"verdict":"met","confidence":1,"reason":"r"}]}`))
		}},
		{name: "another model's entry", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, false, func(e map[string]any) { e["model"] = "other-model" })
		}},
		{name: "another question's entry", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, false, func(e map[string]any) { e["key"] = strings.Repeat("0", 64) })
		}},
		{name: "another version", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, false, func(e map[string]any) { e["version"] = 2 })
		}},
		{name: "an unknown field", asked: true, damage: func(t *testing.T, file string) {
			rewrite(t, file, false, func(e map[string]any) { e["trusted"] = true })
		}},
		{name: "a symlink to a good entry outside the directory", asked: true, damage: func(t *testing.T, file string) {
			outside := filepath.Join(t.TempDir(), "entry.json")
			if err := os.Rename(file, outside); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, file); err != nil {
				t.Skip("no symlinks here:", err)
			}
		}},
		{name: "a symlink to a good entry inside the directory", asked: true, damage: func(t *testing.T, file string) {
			// os.Root would follow this one: only the Lstat refuses it.
			saved := filepath.Join(filepath.Dir(file), "saved")
			if err := os.Rename(file, saved); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("saved", file); err != nil {
				t.Skip("no symlinks here:", err)
			}
		}},
		{name: "a directory in the entry's place", asked: true, damage: func(t *testing.T, file string) {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(file, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "cache") // made by the first answer
			// One server for all three clients: the base URL is part of
			// the key.
			replies := []llmtest.Reply{{Fixture: "criteria_met"}}
			if tt.asked {
				replies = append(replies, llmtest.Reply{Fixture: "criteria_not_met"})
			}
			srv := llmtest.NewServer(t, replies...)
			first, _ := askSort(t, srv, dir, nil)
			if first.Cached || first.Verdict != llm.Met {
				t.Fatalf("first: got %+v, want a fresh met", first)
			}
			file := entryFile(t, dir)
			if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("the directory: got %v, %v; want mode 0700", fi.Mode(), err)
			}
			if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("the entry: got %v, %v; want mode 0600", fi.Mode(), err)
			}
			if tt.damage != nil {
				tt.damage(t, file)
			}

			second, usage := askSort(t, srv, dir, nil)
			if n := len(srv.Requests()); n != len(replies) {
				t.Fatalf("second: got %d model calls in all, want %d", n, len(replies))
			}
			// A write that failed (a directory in the entry's place) leaves
			// no temporary file behind.
			if tmp, err := filepath.Glob(filepath.Join(dir, ".*.tmp")); err != nil || len(tmp) != 0 {
				t.Errorf("temporary files left: %v (%v)", tmp, err)
			}
			if !tt.asked {
				if !second.Cached || second.Verdict != llm.Met || usage != (llm.Usage{}) {
					t.Errorf("second: got %+v costing %+v, want met from the cache at no cost", second, usage)
				}
				return
			}
			if second.Cached || second.Verdict != llm.NotMet || usage.PromptTokens == 0 {
				t.Fatalf("second: got %+v costing %+v, want a fresh not_met", second, usage)
			}
			if tt.name == "a directory in the entry's place" {
				return // the entry could not be written; the answer came all the same
			}
			third, usage := askSort(t, srv, dir, nil)
			if !third.Cached || third.Verdict != llm.NotMet || usage != (llm.Usage{}) || len(srv.Requests()) != len(replies) {
				t.Errorf("third: got %+v costing %+v; the fresh answer did not replace the entry", third, usage)
			}
			if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
				t.Errorf("the rewritten entry: got %v, %v; want a regular file, mode 0600", fi.Mode(), err)
			}
		})
	}
}

// TestDiskCacheUnusable checks that a cache directory that cannot be
// written costs nothing but the cache: every question is answered, by the
// model.
func TestDiskCacheUnusable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"below a regular file", func(t *testing.T) string {
			f := filepath.Join(t.TempDir(), "file")
			if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(f, "cache")
		}},
		{"read-only", func(t *testing.T) string {
			if os.Geteuid() == 0 {
				t.Skip("root writes to a read-only directory")
			}
			d := t.TempDir()
			if err := os.Chmod(d, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(d, 0o700) })
			return d
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := tt.dir(t)
			srv := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"}, llmtest.Reply{Fixture: "criteria_met"})
			for i := range 2 {
				v, usage := askSort(t, srv, dir, nil)
				if v.Cached || v.Verdict != llm.Met || usage.PromptTokens == 0 {
					t.Errorf("client %d: got %+v costing %+v, want a fresh met", i, v, usage)
				}
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("got %d model calls, want 2", n)
			}
		})
	}
}

// TestDiskCacheKey checks what the key holds: another server with a model
// of the same name is asked anew, and a client without a memory cache
// still answers a repeated question from the disk.
func TestDiskCacheKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	askSort(t, llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"}), dir, nil)

	other := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_not_met"})
	if v, _ := askSort(t, other, dir, nil); v.Cached || v.Verdict != llm.NotMet {
		t.Errorf("another server: got %+v, want its own fresh answer", v)
	}

	srv := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"})
	c := newClient(t, srv, func(c *llm.Config) { c.CacheDir = dir; c.CacheEntries = -1 })
	for i := range 2 {
		res, _ := c.JudgeCriteria(context.Background(), sortQuestion)
		if v := res[0].Verdict; v == nil || v.Cached != (i == 1) {
			t.Errorf("ask %d without a memory cache: got %+v, %v", i, v, res[0].Err)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("got %d model calls, want 1", n)
	}
}

func TestConfigCacheDir(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	model := map[string]string{llm.EnvBaseURL: "http://127.0.0.1:11434/v1", llm.EnvModel: "m"}
	with := func(dir string) map[string]string {
		env := map[string]string{llm.EnvCacheDir: dir}
		for k, v := range model {
			env[k] = v
		}
		return env
	}
	tests := []struct {
		name    string
		env     map[string]string
		want    string // Config.CacheDir
		wantErr string
	}{
		{name: "unset: off", env: model},
		{name: "an existing directory", env: with(tmp), want: tmp},
		{name: "a directory to make", env: with(filepath.Join(tmp, "new")), want: filepath.Join(tmp, "new")},
		{name: "spaces around", env: with("  " + tmp + " \n"), want: tmp},
		{name: "blank: off", env: with("   ")},
		{name: "a regular file", env: with(file), wantErr: `llm: JUDGE_LLM_CACHE_DIR: "` + file + `" is not a directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, ok, err := llm.ConfigFromEnv(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				var ce *llm.ConfigError
				if !errors.As(err, &ce) || ce.Field != llm.EnvCacheDir || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("got %v, want a *ConfigError %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !ok || cfg.CacheDir != tt.want {
				t.Errorf("got %q, %v, %v; want %q", cfg.CacheDir, ok, err, tt.want)
			}
		})
	}
	// New checks a Config made in Go the same way.
	if _, err := llm.New(llm.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", CacheDir: file}); err == nil {
		t.Error("New took a regular file as the cache directory")
	}
}
