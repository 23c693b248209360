package result

// QualityType is the validation type of the quality layer: a result in
// which it ran carries [QualityDimensions] in its metadata.
const QualityType = "quality"

// The quality dimensions of the specification's rubric.
const (
	Correctness     = "correctness"     // does it work?
	Completeness    = "completeness"    // does it meet all requirements?
	Readability     = "readability"     // is it easy to understand?
	Maintainability = "maintainability" // is it easy to modify?
	Performance     = "performance"     // is it efficient?
	Security        = "security"        // is it safe from vulnerabilities?
	Style           = "style"           // is it consistently formatted?
)

// Dimensions returns the quality dimensions in the specification's order,
// a new slice on each call.
func Dimensions() []string {
	return []string{Correctness, Completeness, Readability, Maintainability, Performance, Security, Style}
}

// DimensionOf returns the dimension an issue counts against, or "" for an
// issue of a process type (see [TypeInfo]), which counts against none.
// The issue's Dimension decides when the layer that reported it set one
// (the quality layer: unfinished output and placeholders count against
// completeness, a long function against maintainability); else its type.
func DimensionOf(is Issue) string {
	if ti, ok := Lookup(is.Type); ok && ti.Process {
		return ""
	}
	if is.Dimension != "" {
		return is.Dimension
	}
	switch is.Type {
	case MissingField, CriteriaNotMet:
		return Completeness
	case ReadabilityIssue:
		return Readability
	case ComplexityIssue, Optimization:
		return Maintainability
	case PerformanceIssue:
		return Performance
	case SecurityIssue:
		return Security
	case StyleIssue:
		return Style
	}
	return Correctness
}

// QualityDimensions returns a score in [0, 1] for each dimension: the
// product, over the issues that count against it, of (1 - the penalty of
// the issue's severity), as [QualityScore] computes it over all issues.
// The product of the dimensions is therefore the quality score (up to
// rounding), each dimension is 1 when nothing counts against it, and none
// rises when an issue is added or made more severe.
func QualityDimensions(issues []Issue) map[string]float64 {
	byDim := map[string][]Issue{}
	for _, is := range issues {
		if d := DimensionOf(is); d != "" {
			byDim[d] = append(byDim[d], is)
		}
	}
	out := make(map[string]float64, len(Dimensions()))
	for _, d := range Dimensions() {
		out[d] = QualityScore(byDim[d])
	}
	return out
}
