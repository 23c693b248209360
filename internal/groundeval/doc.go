// Package groundeval measures the facts and hallucination layers on
// labelled data nobody on the project wrote: WiCE (Kamoi et al., 2023),
// claims from Wikipedia checked against the pages they cite, and
// SummEdits (Laban et al., 2023), summaries checked against their
// documents. For each it counts the share flagged per label, balanced
// accuracy, and the classes of false flags (the rule and the kind of
// claim) with one example each, so that an error analysis is one
// command: `judge eval`, `go run ./bench/wice`, `go run ./bench/summedits`.
// No model is used.
package groundeval
