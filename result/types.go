package result

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Severity is how much an issue matters: error blocks acceptance, warning
// should be addressed, info needs no action.
type Severity string

// The three severities of the specification.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Valid reports whether s is one of the three severities.
func (s Severity) Valid() bool { return s == Error || s == Warning || s == Info }

// UnmarshalJSON accepts only the three severities.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if !Severity(v).Valid() {
		return fmt.Errorf("severity %q is not one of error, warning, info", v)
	}
	*s = Severity(v)
	return nil
}

// Type categorizes an issue. The vocabulary is the specification's list plus
// the few process types judge adds; every type is registered in [Types] with
// its one-line meaning.
type Type string

// Schema validation.
const (
	SchemaViolation     Type = "schema_violation"
	MissingField        Type = "missing_field"
	InvalidType         Type = "invalid_type"
	ConstraintViolation Type = "constraint_violation"
)

// Criteria validation.
const (
	CriteriaNotMet    Type = "criteria_not_met"
	CriteriaAmbiguous Type = "criteria_ambiguous"
)

// Fact checking.
const (
	FactMismatch     Type = "fact_mismatch"
	UnsupportedClaim Type = "unsupported_claim"
	SourceMissing    Type = "source_missing"
)

// Hallucination detection.
const (
	Hallucination       Type = "hallucination"
	ConfidenceMismatch  Type = "confidence_mismatch"
	DetailInconsistency Type = "detail_inconsistency"
)

// Quality assessment.
const (
	ReadabilityIssue Type = "readability_issue"
	ComplexityIssue  Type = "complexity_issue"
	PerformanceIssue Type = "performance_issue"
	SecurityIssue    Type = "security_issue"
	StyleIssue       Type = "style_issue"
	Optimization     Type = "optimization"
)

// Tool manifests and definitions.
const (
	SyntaxError          Type = "syntax_error"
	UnknownField         Type = "unknown_field"
	DuplicateID          Type = "duplicate_id"
	ExecutorInvalid      Type = "executor_invalid"
	FileMissing          Type = "file_missing"
	ProviderIncompatible Type = "provider_incompatible"
)

// Input that would be read differently by different readers.
const (
	DuplicateKey Type = "duplicate_key"
)

// Process types: what judge says about its own run rather than about the
// output. They never lower the quality score.
const (
	LayerFailed  Type = "layer_failed"
	NotChecked   Type = "not_checked"
	OutputParsed Type = "output_parsed"
)

// Tool calls (package toolcall).
const (
	ArgumentNormalized Type = "argument_normalized"
	ToolError          Type = "tool_error"
	EmptyResult        Type = "empty_result"
)

// process reports whether t is a process type (TypeInfo.Process) without
// a look-up in the table: QualityScore asks it of every issue.
// TestProcessIsTheTables holds it to the table.
func process(t Type) bool {
	switch t {
	case CriteriaAmbiguous, LayerFailed, NotChecked, OutputParsed, ArgumentNormalized:
		return true
	}
	return false
}

// TypeInfo describes one registered issue type.
type TypeInfo struct {
	Type    Type
	Meaning string // one line, used in docs and to complete short messages
	// Process is true for types that describe judge's run or the request
	// rather than the output; they never lower the quality score.
	Process bool
}

// types is the registry of issue types, in documentation order. A new type
// is added here with its one-line meaning and a page under docs/issues/.
// It is never changed: [Types] hands out copies.
var types = [...]TypeInfo{
	{SchemaViolation, "Output does not match the expected schema", false},
	{MissingField, "A required field is absent", false},
	{InvalidType, "A field has the wrong data type", false},
	{ConstraintViolation, "A field violates a constraint (bounds, length, pattern, enum)", false},
	{CriteriaNotMet, "An acceptance criterion failed", false},
	{CriteriaAmbiguous, "An acceptance criterion is unclear or subjective", true},
	{FactMismatch, "A stated fact is close to, but differs from, the trusted sources", false},
	{UnsupportedClaim, "A claim is found in no trusted source", false},
	{SourceMissing, "A cited or trusted source is not available", false},
	{Hallucination, "The output fabricated or contradicted information", false},
	{ConfidenceMismatch, "Certain language is used for an uncertain or wrong claim", false},
	{DetailInconsistency, "Details of the output contradict each other", false},
	{ReadabilityIssue, "Code or text is hard to understand", false},
	{ComplexityIssue, "A solution is more complex than it needs to be", false},
	{PerformanceIssue, "An implementation is inefficient", false},
	{SecurityIssue, "A potential security vulnerability", false},
	{StyleIssue, "Code style is inconsistent with the language's conventions", false},
	{Optimization, "An optional improvement", false},
	{SyntaxError, "A file is not well formed: YAML, XML, JSONPath, a requirement or a script", false},
	{UnknownField, "A manifest field is not known for its tool type and is ignored", false},
	{DuplicateID, "Two tools of one registry share a tool_id", false},
	{ExecutorInvalid, "A tool's executor is missing, of the wrong type, or its chain never reaches a primitive", false},
	{FileMissing, "A file a tool needs is absent or cannot be read", false},
	{ProviderIncompatible, "A tool definition that a model provider would reject or silently change", false},
	{DuplicateKey, "An object of the output or of a tool call's arguments holds a key twice; judge read the last value, a reader keeping the first would not", false},
	{LayerFailed, "A validation layer failed or timed out, so its checks did not run", true},
	{NotChecked, "A requested check could not be decided and was not counted as passed", true},
	{OutputParsed, "How the output string was interpreted before validation", true},
	{ArgumentNormalized, "A tool call's argument was changed before execution: a default filled, a safe coercion, a parameter dropped", true},
	{ToolError, "A tool call failed: an error result, success false, a non-zero exit code or an HTTP error status", false},
	{EmptyResult, "A tool call returned nothing useful: an empty list, object or text, or a no-results message", false},
}

// Types returns the registry of issue types, in documentation order: a new
// slice on each call, so that no caller can change the registry.
func Types() []TypeInfo { return slices.Clone(types[:]) }

// Lookup returns the registered information for t.
func Lookup(t Type) (TypeInfo, bool) {
	i := slices.IndexFunc(types[:], func(ti TypeInfo) bool { return ti.Type == t })
	if i < 0 {
		return TypeInfo{}, false
	}
	return types[i], true
}
