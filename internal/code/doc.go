// Package code parses source code with tree-sitter and measures it: the
// language of a snippet, its first syntax error with line and column, and
// its functions with their line, length and cyclomatic complexity.
//
// # Parsing
//
// [Parse] parses Python, JavaScript, TypeScript, Go and Bash with the
// official tree-sitter grammars, pinned exactly in go.mod. The tree is
// copied into plain Go [Node] values and every tree-sitter object (parser,
// tree, cursor; they hold C memory) is closed before Parse returns. A source
// is at most [MaxSourceBytes] long and its tree at most [MaxDepth] deep; a
// parse stops when its context ends. A syntax error is data, not an error:
// [File.Syntax] holds the first ERROR or MISSING node's line and column.
//
// # Complexity
//
// [File.Functions] counts cyclomatic complexity per function as the
// reference tool of each language counts it (the rules are in
// complexity-counting.md of the shared design notes, and the tests compare
// with the tools themselves):
//
//   - Python: radon cc. 1 + if, elif, ternary, for/while (+1 with else),
//     except handlers and try-else, each and/or operand beyond the first,
//     comprehension for and if clauses, assert. Nested functions are
//     closures counted on their own; a class inside a function is dropped;
//     decorators and default values are not visited.
//   - Go: gocyclo. 1 + if, for, range, each non-default case and select
//     clause, && and ||; function literals count for the enclosing
//     function; top-level var func literals are functions of their own;
//     "//gocyclo:ignore" hides a function.
//   - JavaScript and TypeScript: ESLint's complexity rule, classic variant.
//     1 + if, ?:, &&, ||, ??, for, for-in, for-of, while, do-while, catch,
//     non-default case, default values, ||= &&= ??=, each ?. . Every
//     function, arrow and method, class field initializer and static block
//     has its own count.
//   - Bash, which no reference tool measures: 1 + if, elif, loops, case
//     items other than "*", && and ||.
//
// # Language detection
//
// [Detect] guesses the language of an unlabelled snippet from its shebang
// and the keywords it uses, and [LookupLanguage] maps the names of Markdown
// fences ("py", "ts", "golang", "sh") to a [Language].
package code
