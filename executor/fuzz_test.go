package executor

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

// FuzzJSONPath compiles any path and evaluates it on any document: no
// panic, never more than MaxJSONPathNodes values, and a path the manifest
// parser rejects is rejected here too.
func FuzzJSONPath(f *testing.F) {
	for _, s := range []string{`$.store.book[*].author`, `$..price`, `$['a\u0020b'][0:5:-1]`, `$[1,'x',*]`, `$..[?@.a]`, `$.a.b[-1]`, `$.a[?match(@.b, "[jk]")]`, `$[?count(@..*) > 2 && !@.x]`, `$..book[?@.price < $.x.y]`} {
		f.Add(s, `{"store": {"book": [{"author": "x", "price": 1}]}, "a b": [1, 2, 3]}`)
	}
	f.Fuzz(func(t *testing.T, path, doc string) {
		p, err := compileJSONPath(path)
		if _, perr := manifest.ParseJSONPath(path); perr != nil && err == nil {
			t.Fatalf("%q compiled, but the manifest parser rejects it: %v", path, perr)
		}
		if err != nil {
			return
		}
		v, ok := jsonValue([]byte(doc))
		if !ok {
			return
		}
		out := p.eval(v)
		if l, ok := out.([]any); ok && len(l) > MaxJSONPathNodes {
			t.Fatalf("%d nodes", len(l))
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("the answer does not encode: %v", err)
		}
	})
}

// FuzzExpandURL fills a url_template with any value: no panic, and a
// value put in the path comes back, once unescaped, as exactly one path
// segment; a value in the query as exactly one query value.
func FuzzExpandURL(f *testing.F) {
	for _, s := range []string{"a/b c?d#e", "x&y=z", "../..", "%2F", "${HOME}", "{id}", "\x00\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		env := func(string) (string, bool) { return "ENV", true }
		got, err := expandURL("https://api.example.com/items/{id}/x?q={q}&k=${KEY}", env, map[string]any{"id": v, "q": v})
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if u.Host != "api.example.com" {
			t.Fatalf("the value changed the host: %q", got)
		}
		segs := strings.Split(u.EscapedPath(), "/")
		if len(segs) != 4 || segs[3] != "x" {
			t.Fatalf("the value changed the path's segments: %q", u.EscapedPath())
		}
		if seg, err := url.PathUnescape(segs[2]); err != nil || seg != v {
			t.Fatalf("segment %q unescapes to %q, want %q", segs[2], seg, v)
		}
		q := u.Query()
		if q.Get("q") != v || q.Get("k") != "ENV" || len(q) != 2 {
			t.Fatalf("query %v from %q", q, v)
		}
	})
}

// FuzzExpandEnv expands any template: no panic; a value is never scanned
// again, so a variable whose value holds "${X}" or "{x}" comes out as it
// is.
func FuzzExpandEnv(f *testing.F) {
	for _, s := range []string{"${A}", "x${A}y${B}", "${", "${1A}", "{p}", "{{p}}", "$A}", "${A}${A}"} {
		f.Add(s, "${B}{p}")
	}
	f.Fuzz(func(t *testing.T, tmpl, val string) {
		env := func(name string) (string, bool) {
			if name == "A" {
				return val, true
			}
			return "", name == "B"
		}
		got, err := expand(tmpl, env, nil, nil)
		if err != nil {
			return
		}
		if tmpl == "${A}" && got != val {
			t.Fatalf("${A} = %q, want %q", got, val)
		}
		if !strings.Contains(tmpl, "${") && got != tmpl {
			t.Fatalf("%q without a reference became %q", tmpl, got)
		}
		if _, err := expand(tmpl, env, paramLookup(map[string]any{"p": val}), nil); err != nil && !strings.Contains(tmpl, "{") {
			t.Fatalf("%q: %v", tmpl, err)
		}
	})
}
