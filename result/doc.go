// Package result defines the ValidationResult that every check in judge
// returns, the issue vocabulary it uses, the Builder that is the only way to
// make one, and the renderers that print it.
//
// # The shape
//
// A [ValidationResult] is serialized exactly as in the ValidationResult
// specification: snake_case keys, the severities error, warning and info,
// and the issue types of [Types]. The JSON Schema of the specification is
// embedded, and [Check] and [CheckJSON] validate a result against it.
//
// # Invariants
//
// [Builder.Build] enforces, in one place, what every result promises:
//
//   - Valid is true exactly when no issue has severity error;
//   - the metadata counts match the issues;
//   - Confidence and QualityScore are in [0, 1] and never NaN;
//   - Message and Suggestion are 10 to 500 characters: longer text is cut
//     at a word with "…", shorter text is completed from the issue type;
//   - issues are sorted by location, type and message.
package result
