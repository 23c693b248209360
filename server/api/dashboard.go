package api

import "time"

// Dashboard is the body of GET /v1/dashboard: what this server has seen
// over the last Window minutes, per minute, from its bounded in-memory
// history (the same events /metrics counts). Minutes lists only the
// minutes in which something happened, oldest first; a minute missing
// from it counted nothing.
type Dashboard struct {
	// Now is the server's clock when the snapshot was taken.
	Now time.Time `json:"now"`
	// Start is the first minute of the window, Now's minute the last.
	Start time.Time `json:"start"`
	// Window is the number of minutes the history keeps (360: 6 hours).
	Window int `json:"window_minutes"`
	// ToolLimit is how many tool names are told apart; calls of further
	// tools count under the name "other".
	ToolLimit int      `json:"tool_limit"`
	Minutes   []Minute `json:"minutes"`
	// Totals are the sums of the window.
	Totals Counts `json:"totals"`
}

// Minute is what one minute of the history counted.
type Minute struct {
	// Start is the minute's first instant.
	Start time.Time `json:"start"`
	Counts
}

// Counts are the numbers of one minute or of the whole window.
type Counts struct {
	// Validations are the results of POST /validate and /v1/validate;
	// Valid those whose output was valid.
	Validations int `json:"validations"`
	Valid       int `json:"valid"`
	// ValidShare is Valid / Validations, absent without validations.
	ValidShare *float64 `json:"valid_share,omitempty"`
	// LatencyMS are the percentiles of the validations' durations, in
	// milliseconds, read from a histogram of fixed buckets: each is the
	// upper bound of the bucket the percentile falls in, interpolated
	// linearly within it. Absent without validations.
	LatencyMS *Percentiles `json:"latency_ms,omitempty"`
	// Issues counts the issues of every result (validations, tool calls,
	// conversations) by type, then by severity.
	Issues map[string]Severities `json:"issues,omitempty"`
	// Layers counts the validation layers' runs, failures, run time and
	// issues, by layer.
	Layers map[string]LayerCounts `json:"layers,omitempty"`
	// Calls counts the tool calls checked through /v1/calls/*.
	Calls *CallCounts `json:"calls,omitempty"`
}

// Percentiles are the 50th, 95th and 99th percentiles of a distribution.
type Percentiles struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

// Severities are counts by issue severity.
type Severities struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// LayerCounts are one layer's runs and what they found.
type LayerCounts struct {
	Runs   int `json:"runs"`
	Failed int `json:"failed"`
	// MeanMS is the mean run time in milliseconds.
	MeanMS float64 `json:"mean_ms"`
	Severities
}

// CallCounts are the tool calls checked before execution
// (/v1/calls/check) and the outcomes classified after it
// (/v1/calls/outcome).
type CallCounts struct {
	Checks  int `json:"checks"`
	Invalid int `json:"invalid"`
	// Outcomes counts the outcomes by status: SATISFIED,
	// NEEDS_MORE_TOOLS, NEED_USER_INPUT, FAILED.
	Outcomes map[string]int `json:"outcomes,omitempty"`
	// Tools are the tools called, with how many of their calls failed (an
	// invalid check or a FAILED outcome), those that fail most first.
	Tools []ToolCounts `json:"tools,omitempty"`
}

// ToolCounts are one tool's checked calls and outcomes and how many of
// them failed.
type ToolCounts struct {
	Tool     string `json:"tool"`
	Calls    int    `json:"calls"`
	Failures int    `json:"failures"`
}
