// Package claim extracts atomic, checkable claims from an LLM's output:
// the specifics a fact checker can compare with a source.
//
// # Kinds
//
// A [Claim] is one specific with its [Kind]:
//
//   - numbers and quantities with what they measure: "a CVSS score of 9.8"
//     (attribute "CVSS score"), "170 litres" (unit "litre"), "$5bn",
//     "45%", number words such as "seven";
//   - versions ("1.24.1") and version ranges ("prior to 1.24.1",
//     ">= 2.0", "1.2 to 1.5");
//   - dates, months, weekdays and times ("February 2024", "June 26th",
//     "2024-02-13", "Thursday", "1:34 PM");
//   - identifiers: CVE ids, URLs, email addresses, file paths;
//   - names of people and organisations ("Alice Smith", "NVD"), with the
//     role a "by" phrase gives them ("discovered by Alice Smith": the
//     discoverer);
//   - citations ("according to NVD");
//   - negations ("was not happy"): the negated words, so that a dropped or
//     inserted "not" can be found.
//
// Each claim carries its location: the field path of the JSON string it
// came from (in the specification's notation, "summary", "items[2].text")
// or, for a text output, its line and column; and the byte span in that
// text. [Claim.Location] renders both with the attribute, as the
// specification's Example 3 does: "summary:cvss_score".
//
// # Method
//
// Extraction is deterministic: regular expressions (RE2, linear in the
// input) find the specifics in a fixed order of precedence (URLs before
// paths, CVE ids before numbers, dates before numbers), a span once taken
// is not read again, and the words before a value name what it measures.
// No model is involved. Input is bounded: text beyond [MaxTextBytes] and
// claims beyond [MaxClaims] are not read, and the [Set] says so.
package claim
