package schema

import "github.com/agentjudge/judge/internal/location"

// Location renders a path into a JSON value, given as the tokens of a JSON
// Pointer (unescaped), in the notation of the ValidationResult
// specification: "root", "user.profile.email", "tasks[2].status",
// a["b.c"]. It is [location.Path]; isIndex reports whether tokens[i]
// indexes an array (nil treats every token as a key).
func Location(tokens []string, isIndex func(i int) bool) string {
	return location.Path(tokens, isIndex)
}

// InstanceLocation is [Location] with array indices resolved against doc,
// a decoded JSON value: [location.Instance].
func InstanceLocation(doc any, tokens []string) string {
	return location.Instance(doc, tokens)
}

func isArrayIndex(tok string) bool { return location.IsIndex(tok) }

func quoteJSON(s string) string { return location.Quote(s) }
