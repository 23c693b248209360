// Package quality defines the layer that reviews the code and the prose of
// an output, and the quality dimensions of its score.
//
// # Layer quality
//
// quality: review code and prose for complexity, security, performance, style and readability
//
// The layer finds the code of the output: each fenced block (its info
// string names the language; an unlabelled block's language is detected),
// each indented code block (as CommonMark reads it: four columns past the
// content of the list item that holds it; language detected), a JSON field
// holding code ("code", "source", "script", … with an optional "language"
// beside it, or the "content" of an object whose "path" has a code
// extension), or the whole output when it is code. Each piece is
// parsed with tree-sitter (Python, JavaScript, TypeScript, Go, Bash) and
// checked:
//
//   - syntax_error (error): the first syntax error, at line:column.
//   - complexity_issue (warning): a function whose cyclomatic complexity,
//     counted as radon, gocyclo or ESLint count it, is over the threshold
//     (10 unless options.quality.max_complexity says otherwise).
//   - security_issue: shell execution with shell=True or a command string,
//     eval/exec/new Function, SQL built by string formatting, pickle,
//     marshal and yaml.load on data, disabled TLS verification, weak hashes
//     (MD5, SHA-1), hard-coded secrets (passwords assigned in code, known
//     key formats, high-entropy strings). Each names the line and the safe
//     alternative.
//   - performance_issue: nested loops over the same collection, repeated
//     string concatenation in a loop, a membership test on a list inside a
//     loop.
//   - style_issue: function names against the language's convention
//     (snake_case in Python, camelCase in JavaScript and TypeScript,
//     MixedCaps in Go), lines over the language's limit (88 for Python, 100
//     for the others, options.quality.max_line_length).
//   - readability_issue: one-letter or meaningless names outside loops and
//     lambdas, public functions without a docstring or doc comment,
//     functions over options.quality.max_function_length lines (50).
//
// The prose of a text output (outside its code blocks) is checked for long
// sentences and words, repeated sentences, unfinished output (a cut-off
// last sentence, an unclosed fence or bracket) and placeholder text
// ("TODO", "lorem ipsum", "[insert …]"). So is every string field of a JSON
// output that reads as prose (ten words, or six in two sentences) and is not
// code, as a text output with its own code blocks; a JSON string of one
// sentence is not reported as cut off. Shorter strings (names, labels,
// identifiers, URLs, enums) are looked at for placeholders only.
//
// Every finding has a location "function:NAME", "line:N" or
// "function:NAME:line:N", where N counts lines of the output text (of the
// field's string, after the field's path, for a JSON field: "answer:line:3";
// the path alone for a one-line string's prose: "summary"), a stable rule
// id such as "security.shell_true", and a suggestion.
//
// Code in a language the layer does not parse is reported as not checked.
// The quality_score of a result in which the quality layer ran has its
// sub-scores (correctness, completeness, readability, maintainability,
// performance, security, style) in metadata.quality_dimensions; see
// docs/scoring.md and docs/quality.md.
package quality
