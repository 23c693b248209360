package console

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentjudge/judge/examples"
	"github.com/agentjudge/judge/internal/jsonpos"
	"github.com/agentjudge/judge/internal/location"
)

// loneSurrogate matches a \u escape of a UTF-16 surrogate: Go decodes a
// lone one to U+FFFD and JavaScript keeps it, so the two cannot agree on
// such a key (the page then says the field is not there). An escaped
// backslash before "ud800" matches too: such documents are skipped, not
// misjudged.
var loneSurrogate = regexp.MustCompile(`(?i)\\ud[89a-f]`)

// FuzzLocate runs the playground's locator (assets/locate.js, in Node)
// on fuzzed JSON documents and compares, for every value, where it finds
// the location judge writes for it (internal/location) with where
// judge's own locator finds it (internal/jsonpos).
func FuzzLocate(f *testing.F) {
	node, err := exec.LookPath("node")
	if err != nil {
		f.Skip("no node on PATH: the locator's fuzz target needs it")
	}
	abs, err := filepath.Abs(filepath.Join("assets", "locate.js"))
	if err != nil {
		f.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join("testdata", "locate-harness.js"), abs)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		f.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		f.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	answers := bufio.NewReaderSize(stdout, 1<<16)

	f.Add([]byte(`{"a.b": {"": [1, {"q\u200d": "x"}]}, "2024": true, "café": {"prix": 3.5e2}, "k\"ey": ["🙂", {"🙂": null}], "sp ace": [[[]], {}]}`))
	f.Add([]byte(`[1, "two", [3], {"four": 4}]`))
	f.Add([]byte(` "just a string" `))
	names, err := fs.Glob(examples.FS, "*.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(examples.FS, name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 || !utf8.Valid(data) || !json.Valid(data) || loneSurrogate.Match(data) || duplicateKeys(data) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil {
			return
		}
		var locs []string
		var want []int
		walkPaths(doc, nil, func(tokens []string) {
			off, ok := jsonpos.Offset(data, tokens)
			if !ok {
				t.Fatalf("jsonpos finds no %q in %s", tokens, data)
			}
			locs = append(locs, location.Instance(doc, tokens))
			want = append(want, len(utf16.Encode([]rune(string(data[:off])))))
		})
		line, err := json.Marshal(map[string]any{"text": string(data), "locs": locs})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			t.Fatalf("writing to node: %v", err)
		}
		answer, err := answers.ReadBytes('\n')
		if err != nil && err != io.EOF {
			t.Fatalf("reading from node: %v", err)
		}
		var got []int
		if err := json.Unmarshal(answer, &got); err != nil || len(got) != len(want) {
			t.Fatalf("node answered %q (%v) for %d locations", answer, err, len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: found at %d, judge's locator says %d, in %s", strconv.Quote(locs[i]), got[i], want[i], data)
			}
		}
	})
}

// duplicateKeys reports whether an object of the JSON document data has
// a key twice (the page marks the last, jsonpos finds the first).
func duplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys   map[string]bool
		object bool
		key    bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.key
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{keys: map[string]bool{}, object: tok == '{', key: tok == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if isKey {
				if top.keys[tok] {
					return true
				}
				top.keys[tok] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}
