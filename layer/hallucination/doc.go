// Package hallucination defines the layer that looks for signs of
// fabrication within an output: details that contradict each other, and
// certainty language on claims the sources do not bear out.
//
// # Layer hallucination
//
// hallucination: find self-contradicting details and overconfident claims
//
// The layer applies by default when the request gives sources or
// trusted_sources, like the facts layer, and to any output when
// validation_types names it. It reads the same claims (see
// internal/claim):
//
//   - detail_inconsistency (warning): one attribute given two values in
//     the same output ("The CVSS score is given as 9.8 and as 7.5"): two
//     numbers, dates, versions, version ranges or names under the same
//     attribute anywhere in the output (within one item of an array, whose
//     items may well differ), that differ (two names agree when the
//     words of one stand together among the other's: "Ona Vey" and "Ona
//     Vey Lenk", not "World War I" and "World War II");
//   - confidence_mismatch (warning): certainty language ("definitely",
//     "confirmed", "100%") in the sentence of a claim that the sources
//     contradict or do not support.
//
// Contradicted and unsupported claims themselves are reported by the facts
// layer; this layer only adds what they mean for the output as a whole.
// "No hallucinations present" is in failed_criteria when any claim is
// contradicted or any issue above is found, in passed_criteria when every
// claim was decided and none is, and in neither otherwise. The internal
// consistency check counts as one deterministic check, each certain claim
// as one more (undecided when the sources cannot decide it).
//
// Named without sources, the layer runs what needs none: the
// detail_inconsistency check. Certainty language cannot be weighed then:
// each sentence that uses it is a not_checked note, and "No hallucinations
// present" can fail but never pass, since contradictions are not known.
// The layer does not apply by default without sources: ordinary outputs
// give one attribute two values on purpose (a price before and after, two
// releases' dates), and warnings on them would be false positives.
//
// The hook for a model (an LLM judging what the deterministic checks leave
// undecided) is the facts layer's; this layer needs none. See
// docs/grounding.md.
package hallucination
