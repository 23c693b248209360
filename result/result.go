package result

// Issue is one finding: what is wrong, where, and what to do about it.
type Issue struct {
	Severity Severity `json:"severity"`
	Type     Type     `json:"type"`
	// Message says what is wrong, naming the field and expected vs actual;
	// 10 to 500 characters in a built result.
	Message string `json:"message"`
	// Location is where, in the specification's notation: "root",
	// "user.profile.email", "tasks[2].status", "line:42", "function:f".
	Location string `json:"location,omitempty"`
	// Suggestion says what to do, starting with a verb; 10 to 500
	// characters in a built result, or empty.
	Suggestion string `json:"suggestion,omitempty"`
	// Rule is an optional stable identifier of the check that reported the
	// issue, finer than Type: "schema.required", "criteria.rule".
	Rule string `json:"rule,omitempty"`
	// Dimension, when not empty, is the quality dimension the issue counts
	// against instead of its type's (see [DimensionOf]): the layer that
	// reports the issue knows its rules, package result does not. It is
	// not part of the JSON form.
	Dimension string `json:"-"`
}

// ValidationResult is the one answer of every check in judge. Make one with
// a [Builder]; a zero ValidationResult is not valid JSON output.
type ValidationResult struct {
	Valid          bool     `json:"valid"`
	Confidence     float64  `json:"confidence"`
	Issues         []Issue  `json:"issues"`
	PassedCriteria []string `json:"passed_criteria"`
	FailedCriteria []string `json:"failed_criteria"`
	QualityScore   float64  `json:"quality_score"`
	Metadata       Metadata `json:"metadata"`
}

// Metadata is what the run did: which layers, how many issues of each
// severity, how long, and which model if one was used.
type Metadata struct {
	ValidationTypesRun []string `json:"validation_types_run"`
	TotalIssues        int      `json:"total_issues"`
	ErrorCount         int      `json:"error_count"`
	WarningCount       int      `json:"warning_count"`
	InfoCount          int      `json:"info_count"`
	// DurationMS is the wall time of the validation in milliseconds.
	DurationMS float64 `json:"duration_ms"`
	// Model is the LLM model that decided any check, or "deterministic"
	// when none did.
	Model string `json:"model"`
	// TokenUsage is what the model calls of the validation cost, summed;
	// absent when no model was called. An extension of the
	// specification's metadata, which allows further members.
	TokenUsage *TokenUsage `json:"token_usage,omitempty"`
	// QualityDimensions are the sub-scores of quality_score by dimension
	// (see [QualityDimensions]), present when the quality layer ran. An
	// extension of the specification's metadata.
	QualityDimensions map[string]float64 `json:"quality_dimensions,omitempty"`
}

// TokenUsage counts the tokens of model calls.
type TokenUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// Deterministic is the Model of a result that no LLM contributed to.
const Deterministic = "deterministic"

// Errors returns the issues of severity error.
func (r *ValidationResult) Errors() []Issue { return r.bySeverity(Error) }

// Warnings returns the issues of severity warning.
func (r *ValidationResult) Warnings() []Issue { return r.bySeverity(Warning) }

func (r *ValidationResult) bySeverity(s Severity) []Issue {
	var out []Issue
	for _, is := range r.Issues {
		if is.Severity == s {
			out = append(out, is)
		}
	}
	return out
}
