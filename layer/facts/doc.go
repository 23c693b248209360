// Package facts defines the layer that checks the claims of an output
// against the trusted sources of the request.
//
// # Layer facts
//
// facts: check the output's claims against the request's trusted sources
//
// The layer applies when the request gives sources (inline "sources") or
// names trusted_sources. It extracts every atomic claim of the output
// (numbers with what they measure, versions and ranges, dates, CVE ids,
// URLs, emails, file paths, names, negations: see internal/claim) and
// decides each against the sources, split into passages and indexed once
// (see internal/source). Claims beyond internal/claim's limits are not
// read, and a not_checked note says so. Each claim gets one verdict:
//
//   - supported: a passage states it; nothing is reported;
//   - contradicted: a passage about the same thing states another value: a
//     hallucination error, "CVSS score stated as 9.8 but 7.5 according to
//     NVD", with the evidence passage, or a fact_mismatch warning for a
//     near miss (a date off in its month or day, a number within 5%); the
//     suggestion gives the source's value and its URL (or id);
//   - unsupported: no passage states it: an unsupported_claim error
//     ("Discoverer 'Alice Smith' not found in sources"), a warning for a
//     negation the sources state without negation;
//   - undecided: a negation whose words no source has; a not_checked note
//     says so and the layer's confidence drops.
//
// Besides claims, each sentence is compared with the passage that best
// matches it: a word whose WordNet antonym the passage uses instead
// ("decreased" where it says "increased") is a hallucination warning of
// certainty 0.75. A sentence of six or more content words of which the
// sources hold less than a quarter (in any passage) is an
// unsupported_claim warning of certainty 0.6 (rule
// facts.sentence_unsupported), naming the words they do not hold; a
// sentence about the source itself ("The document…", "The speakers…") is
// left alone. [Verdicts] lists every claim with its verdict, source id
// and evidence passage, for callers who want more than the issues.
//
// A trusted_sources entry that no source answers to (by id, URL or file
// name) and a source the output cites ("according to NVD") that is not
// given are source_missing errors. The arithmetic is honest: every claim
// counts once; a supported or contradicted claim is decided with certainty
// 1, an unsupported one with certainty 0.75 (a lexical search can miss a
// paraphrase), an undecided one with 0. "All facts are supported by trusted
// sources" is in passed_criteria when every claim is supported, in
// failed_criteria when any is contradicted or unsupported, and in neither
// otherwise. An output with no checkable claim is reported as not checked.
//
// [Layer] uses no model. [NewLayer] gives the layer one (the engine does
// so under judge.WithLLM or judge.WithModel): the claims the checker leaves undecided or
// unsupported, each with the five passages most related to it, go to the
// model together, in as few calls as fit and in parallel, under the
// layer's deadline less a margin. A "supported" or "contradicted" verdict
// counts with the model's own confidence as its certainty and names the
// model in metadata.model; a contradiction is a hallucination error in the
// checker's format, under the rule facts.model_contradicted. A claim the
// model cannot decide ("cannot_tell", a malformed answer, no answer in
// time, an error) keeps the checker's verdict: an undecided claim stays
// not_checked, with the model's reason; an unsupported one stays an
// unsupported_claim. No claim is ever counted as supported because the
// model failed.
//
// Nothing is fetched from the network: a URL only names a source. See
// docs/grounding.md.
package facts
