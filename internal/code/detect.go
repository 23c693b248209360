package code

import (
	"context"
	"regexp"
	"strings"
)

// signs are the marks of each language that Detect weighs: a line that
// matches adds the weight to the language's score.
var signs = map[Language][]struct {
	re     *regexp.Regexp
	weight int
}{
	Python: {
		{regexp.MustCompile(`^\s*def \w+\s*\(.*\)\s*(->\s*[^:]+)?:\s*(#.*)?$`), 4},
		{regexp.MustCompile(`^\s*class \w+(\(.*\))?:\s*$`), 4},
		{regexp.MustCompile(`^\s*(from [\w.]+ )?import [\w.]+( as \w+)?(, [\w.]+)*\s*$`), 2},
		{regexp.MustCompile(`^\s*(if|elif|while|for|with|try|except|else)\b.*:\s*(#.*)?$`), 2},
		{regexp.MustCompile(`^\s*(print|self\.\w+)\(|\bself\.|\bNone\b|\bTrue\b|\bFalse\b|^\s*@\w+`), 1},
	},
	JavaScript: {
		{regexp.MustCompile(`^\s*(export\s+)?(async\s+)?function\*?\s*\w*\s*\(`), 3},
		{regexp.MustCompile(`^\s*(const|let|var)\s+[\w{}\[\], ]+\s*=`), 2},
		{regexp.MustCompile(`=>|console\.\w+\(|require\(|module\.exports|\bdocument\.|\bundefined\b|===|!==`), 2},
		{regexp.MustCompile(`^\s*import .* from ['"]|^\s*export (default|const|function|class)`), 2},
		{regexp.MustCompile(`;\s*$|^\s*}\s*$`), 1},
	},
	TypeScript: {
		{regexp.MustCompile(`^\s*(export\s+)?(interface|type|enum|namespace)\s+\w+`), 4},
		{regexp.MustCompile(`\w\s*:\s*(string|number|boolean|any|void|unknown|never|Promise<|Record<|Array<)`), 4},
		{regexp.MustCompile(`^\s*(public|private|protected|readonly)\s+\w+`), 2},
		{regexp.MustCompile(`\)\s*:\s*\w+(<.*>)?(\[\])?\s*(=>|\{)`), 3},
	},
	Go: {
		{regexp.MustCompile(`^package \w+\s*$`), 6},
		{regexp.MustCompile(`^func (\(\w+ \*?\w+(\[.*\])?\) )?\w+(\[.*\])?\(`), 5},
		{regexp.MustCompile(`:= |^import \($|^\s*"[\w./-]+"$|\bfmt\.\w+\(|\berr != nil\b`), 2},
		{regexp.MustCompile(`^type \w+ (struct|interface)\s*\{`), 4},
	},
	Bash: {
		{regexp.MustCompile(`^#!.*\b(ba|z|k)?sh\b`), 10},
		{regexp.MustCompile(`^\s*(fi|done|esac|then|do)\s*$|^\s*(if|while|until) \[\[? `), 3},
		{regexp.MustCompile(`^\s*(echo|export|set -\w+|source|cd|mkdir|chmod|sudo|apt-get|curl|grep) `), 2},
		{regexp.MustCompile(`\$\{?\w+\}?|\$\(|\|\| exit|&& \\$`), 1},
		{regexp.MustCompile(`^\s*\w+\(\)\s*\{`), 2},
	},
}

// detectBytes is how much of a source Detect reads.
const detectBytes = 16 << 10

// Detect guesses the language of src from its shebang and the lines that
// look like each language, in its first 16 KiB. When two languages score close, the one that
// parses without a syntax error wins. It reports false when nothing looks
// like code of a known language.
func Detect(ctx context.Context, src string) (Language, bool) {
	if lang, ok := shebang(src); ok {
		return lang, true
	}
	// The start of a source tells its language as well as the whole.
	if len(src) > detectBytes {
		src = src[:detectBytes]
		if i := strings.LastIndexByte(src, '\n'); i > 0 {
			src = src[:i+1]
		}
	}
	scores := map[Language]int{}
	for _, line := range strings.Split(src, "\n") {
		for lang, ss := range signs {
			for _, s := range ss {
				if s.re.MatchString(line) {
					scores[lang] += s.weight
				}
			}
		}
	}
	// TypeScript is JavaScript with types: its own signs decide.
	if scores[TypeScript] > 0 {
		scores[TypeScript] += scores[JavaScript]
	}
	best, second := Language(""), Language("")
	for _, lang := range Languages {
		switch {
		case best == "" || scores[lang] > scores[best]:
			best, second = lang, best
		case second == "" || scores[lang] > scores[second]:
			second = lang
		}
	}
	if scores[best] < 3 {
		return "", false
	}
	if scores[second]*3 >= scores[best]*2 {
		// Close: prefer the one that parses.
		for _, lang := range []Language{best, second} {
			if f, err := Parse(ctx, lang, []byte(src)); err == nil && f.Syntax == nil {
				return lang, true
			}
		}
	}
	return best, true
}

// shebang reads the interpreter of a "#!" first line.
func shebang(src string) (Language, bool) {
	first, _, _ := strings.Cut(src, "\n")
	if !strings.HasPrefix(first, "#!") {
		return "", false
	}
	fields := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(fields) == 0 {
		return "", false
	}
	prog := fields[0][strings.LastIndexByte(fields[0], '/')+1:]
	if prog == "env" && len(fields) > 1 {
		prog = fields[len(fields)-1]
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") {
				prog = f
				break
			}
		}
	}
	prog = strings.TrimRight(prog, "0123456789.")
	switch prog {
	case "python", "pypy":
		return Python, true
	case "node", "nodejs", "deno", "bun":
		return JavaScript, true
	case "ts-node", "tsx":
		return TypeScript, true
	case "sh", "bash", "zsh", "ksh", "dash":
		return Bash, true
	}
	return "", false
}
