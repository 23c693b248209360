package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// exampleCmd is one command of examples/README.md with the exit status it
// documents.
type exampleCmd struct {
	line  int
	text  string
	args  []string
	stdin string // file redirected to stdin, if any
	code  int
}

// exitCommentRE is the comment documenting a command's exit status.
var exitCommentRE = regexp.MustCompile(`\s+#\s*exit\s+(\d+)\b.*$`)

// readExampleCommands returns every "go run ./cmd/judge …" command in the
// ```sh blocks of examples/README.md. Each must document its exit status in
// a trailing "# exit N" comment, except judge serve, which runs until
// stopped.
func readExampleCommands(t *testing.T, path string) []exampleCmd {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []exampleCmd
	inSh := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		start := n
		switch trimmed := strings.TrimSpace(line); {
		case strings.HasPrefix(trimmed, "```"):
			inSh = !inSh && strings.TrimPrefix(trimmed, "```") == "sh"
			continue
		case !inSh:
			continue
		}
		for strings.HasSuffix(line, `\`) && sc.Scan() {
			n++
			line = strings.TrimSuffix(line, `\`) + " " + strings.TrimSpace(sc.Text())
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "go run ./cmd/judge ")
		if !ok {
			continue
		}
		c := exampleCmd{line: start, text: line}
		m := exitCommentRE.FindStringSubmatchIndex(rest)
		if m == nil {
			if strings.HasPrefix(rest, "serve") {
				continue
			}
			t.Fatalf("%s:%d: %q documents no exit status; end it with \"# exit N\"", path, start, line)
		}
		c.code, _ = strconv.Atoi(rest[m[2]:m[3]])
		words, err := shellWords(rest[:m[0]])
		if err != nil {
			t.Fatalf("%s:%d: %v", path, start, err)
		}
		for i := 0; i < len(words); i++ {
			switch words[i] {
			case "<":
				if i+1 >= len(words) {
					t.Fatalf("%s:%d: '<' without a file", path, start)
				}
				c.stdin = words[i+1]
				i++
			case "|", ">", "&&", ";":
				t.Fatalf("%s:%d: %q is not supported in a tested command", path, start, words[i])
			default:
				c.args = append(c.args, words[i])
			}
		}
		cmds = append(cmds, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// shellWords splits s into words as a POSIX shell would for the simple
// commands of the README: blanks separate words, and single or double
// quotes group them ("\" escapes in double quotes are kept literally
// except \" and \\).
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestExamples runs every command of examples/README.md with the built
// binary and checks the exit status it documents, so that the README stays
// true; and checks that the README names every file in examples/.
func TestExamples(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	readme := filepath.Join(root, "examples", "README.md")
	cmds := readExampleCommands(t, readme)
	if len(cmds) < 10 {
		t.Fatalf("found %d tested commands in %s, want at least 10", len(cmds), readme)
	}
	for _, c := range cmds {
		t.Run(fmt.Sprintf("line%d", c.line), func(t *testing.T) {
			t.Parallel()
			var stdin []byte
			if c.stdin != "" {
				var err error
				if stdin, err = os.ReadFile(filepath.Join(root, c.stdin)); err != nil {
					t.Fatal(err)
				}
			}
			r := runJudge(t, stdin, c.args...)
			if r.code != c.code {
				t.Errorf("examples/README.md:%d: %s\nexit status %d, documented %d\nstdout:\n%s\nstderr:\n%s", c.line, c.text, r.code, c.code, r.stdout, r.stderr)
			}
		})
	}

	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "README.md" {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		dir := filepath.ToSlash(filepath.Dir(rel))
		if !strings.Contains(string(text), rel) && !strings.Contains(string(text), dir+" ") && !strings.Contains(string(text), dir+"`") {
			t.Errorf("examples/README.md does not mention %s (nor its directory)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestShellWords(t *testing.T) {
	t.Parallel()
	got, err := shellWords(`validate a.json --criteria "The answer's \"tone\" is calm" --x 'single q' < in.json`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"validate", "a.json", "--criteria", `The answer's "tone" is calm`, "--x", "single q", "<", "in.json"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("shellWords = %q, want %q", got, want)
	}
}
