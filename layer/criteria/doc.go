// Package criteria defines the layer that checks an output against the
// acceptance criteria of a request.
//
// # Layer criteria
//
// criteria: check the output against the request's acceptance criteria
//
// A criterion with a rule is decided by the rule: a CEL expression over the
// variables output (the output under validation, decoded JSON), text (the
// output as the request gave it when that was a string, before any JSON in
// it was parsed, else "") and context (the request's context, decoded
// JSON), that must yield a bool. True puts the criterion in
// passed_criteria; false, or an evaluation error such as a missing key,
// puts it in failed_criteria with a criteria_not_met error. A rule stopped
// by the cost limit, a guard or the deadline is neither passed nor failed:
// a not_checked note says so and confidence drops. A rule that does not
// compile rejects the request, pointing at its line and column.
//
// A criterion in plain language (no rule) needs a model. Without one (the
// package's [Layer]) it is reported as not checked and never counted as
// passed. With one ([NewLayer], or the engine's model under judge.WithLLM
// or judge.WithModel) the plain criteria of a request go to the model together, in
// as few calls as fit: a "met" verdict passes the criterion, a "not_met"
// one fails it with a criteria_not_met error (rule criteria.judge) whose
// message carries the model's reason, and either counts with the model's
// own confidence; an answer that stays malformed, a model that cannot tell,
// fails or does not answer before the layer's deadline leaves the criterion
// undecided (not_checked, certainty 0). A plain-language criterion that
// uses subjective words ("good", "clean", "fast") with no measurable anchor
// gets a criteria_ambiguous warning, before any call to the model.
//
// # Rules
//
// Rules are CEL (https://cel.dev) with the standard macros (has, all,
// exists, exists_one, map, filter, size, matches) and the extension
// libraries strings, lists, sets, math, encoders (base64 only), bindings
// (cel.bind), two-variable comprehensions, regex and optional values
// (output.?a.orValue(x)).
// Decoded JSON numbers become int when written as integers that fit in 64
// bits and double otherwise; ints and doubles compare with each other.
//
// Each rule and message expression is compiled once and cached in the
// layer's [layer.Cache] by a hash of its text. An evaluation costs at most
// [CostLimit] CEL cost units, and every call pays for the value it builds,
// a unit per 10 bytes of a string and per element of a list, so an
// evaluation builds about 10 MB at most. Calls that could build far more
// than their arguments, or work far longer, before being charged (replace,
// join, format, split, the regular expression functions, sort, distinct,
// the set functions, ...) are guarded: the rule is stopped before such a
// call runs when the call alone would cost more than the limit. A rule
// whose estimated cost exceeds the limit on every output is rejected at
// compile time.
//
// # Results
//
// Issues are located at acceptance_criteria[i], the 0-based index of the
// criterion in the request, which stays unique when ids or descriptions
// repeat. The failure message is the criterion's message if given, else
// its messageExpression evaluated, else "Acceptance criterion not met:
// <name>". Criteria sharing a name appear once in passed_criteria or
// failed_criteria, at the place of the first: failed if any of them failed,
// passed only if all of them passed.
//
// See docs/criteria.md for the rule language, the limits and examples.
package criteria
