// Package source splits trusted source documents into passages, indexes
// them once, and checks a [claim.Claim] against them.
//
// # Documents
//
// A [Doc] is one source: its id, optional URL and title, and content in
// plain text, Markdown or JSON ([Format], guessed from the id's extension
// when not given). Markdown loses its markup (headings, emphasis, links
// become their text and URL, table cells "key: value"); JSON becomes one
// line "key: value" per scalar, the key being the last two object keys, so
// that {"cvss": {"baseScore": 7.5}} reads "cvss base score: 7.5". Nothing
// is ever fetched: a URL is only a name. [LoadDir] reads a directory of
// .txt, .md and .json files.
//
// # Index
//
// [Build] splits a document into passages (sentences and lines), extracts
// the claims each passage states (with package claim), and builds two
// inverted indexes: word stems to passages, and claim values to passages.
// A [DocIndex] is immutable and safe for concurrent use, so a caller can
// cache it by the document's content and reuse it across requests;
// [NewIndex] joins several into the [Index] one request checks against.
//
// # Verdicts
//
// [Index.Check] gives a claim one of three verdicts with its evidence:
//
//   - Supported: a passage states the same value (a number with a
//     compatible unit, a date whose given parts agree, the same version,
//     identifier or name) and, for numbers, dates and times, shares at least
//     one word with the claim's sentence or attribute;
//   - Contradicted: no passage supports it, and a passage about the same
//     thing (sharing the claim's attribute, or two of its sentence's words)
//     states a different value of the same kind; the verdict carries that
//     value and says whether it is a near miss (a date off in its month or
//     day only, a number within 5%);
//   - Unsupported: no passage states it.
//
// A negation ("was not happy") is supported when a passage with the same
// words is negated too, unsupported when the passages with its words are
// not negated, and undecided when no passage has its words: that is not
// evidence either way. Undecided is reported as such, never as supported.
package source
