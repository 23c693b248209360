// Package api defines the wire types of judge's HTTP API that are not a
// ValidationResult: RFC 9457 problem details with their codes, and the
// bodies of the health and capabilities routes.
//
// The body of POST /validate is a judge.Request and its answer a
// result.ValidationResult; they are defined in those packages.
package api

// Media types the API speaks.
const (
	// MediaTypeJSON is the media type of every successful JSON answer.
	MediaTypeJSON = "application/json"
	// MediaTypeProblem is the media type of every error answer (RFC 9457).
	MediaTypeProblem = "application/problem+json"
)

// StatusClientClosedRequest is the status logged and counted when the
// client went away before its request was answered (nginx's 499). The
// client never reads it.
const StatusClientClosedRequest = 499

// ProblemTypeBase prefixes a [Code] to make the problem's type URI.
const ProblemTypeBase = "https://agentjudge.dev/problems/"

// Code names the kind of a problem; it is the last segment of the problem's
// type URI and is also sent as the "code" extension member.
type Code string

// The codes of every problem the server answers with, by status.
const (
	// CodeInvalidRequest (400): the body is not a valid request: malformed
	// JSON (detail gives line and column), an unknown field, nesting too
	// deep, an invalid schema, a rule that does not compile, an unknown
	// validation type.
	CodeInvalidRequest Code = "invalid-request"
	// CodeUnauthorized (401): the bearer token is missing or wrong.
	CodeUnauthorized Code = "unauthorized"
	// CodeNotFound (404): no route has this path.
	CodeNotFound Code = "not-found"
	// CodeMethodNotAllowed (405): the route exists but not for this method;
	// the Allow header lists the methods it takes.
	CodeMethodNotAllowed Code = "method-not-allowed"
	// CodeBodyTooLarge (413): the body is over the server's limit.
	CodeBodyTooLarge Code = "body-too-large"
	// CodeUnsupportedMediaType (415): the body is not application/json (or
	// a +json type) in UTF-8 without a content coding.
	CodeUnsupportedMediaType Code = "unsupported-media-type"
	// CodeRequestTimeout (408): the body had not arrived whole when the
	// server's read timeout passed (a slow or stalled upload).
	CodeRequestTimeout Code = "request-timeout"
	// CodeClientClosedRequest (499): the client went away first.
	CodeClientClosedRequest Code = "client-closed-request"
	// CodeInternal (500): the server failed; the detail names the request
	// id to quote, never the cause.
	CodeInternal Code = "internal"
	// CodeUnavailable (503): the server is shutting down, the request was
	// aborted because it did not finish while the server drained, or the
	// server is saturated (every in-flight slot or in-flight byte taken,
	// or a layer found no free engine slot, judge.ErrBusy): nothing was
	// checked, and Retry-After says when to try again.
	CodeUnavailable Code = "unavailable"
	// CodeBadGateway (502): a server judge forwards to (the model behind
	// judge proxy) could not be reached or answered with something that
	// is not its protocol.
	CodeBadGateway Code = "bad-gateway"
)

// TypeURI returns the problem type URI of c.
func (c Code) TypeURI() string { return ProblemTypeBase + string(c) }

// Problem is an RFC 9457 problem detail, the body of every error answer.
type Problem struct {
	// Type is a URI naming the kind of problem: ProblemTypeBase + Code.
	Type string `json:"type"`
	// Title is a short summary of the kind of problem, the same for every
	// occurrence of it.
	Title string `json:"title"`
	// Status is the HTTP status code.
	Status int `json:"status"`
	// Detail explains this occurrence; for a malformed body it carries the
	// field and the line and column.
	Detail string `json:"detail,omitempty"`
	// Instance is the path of the request the problem is about.
	Instance string `json:"instance,omitempty"`
	// Code is the kind of problem (extension member).
	Code Code `json:"code"`
	// RequestID is the request's id, as in the X-Request-Id header
	// (extension member).
	RequestID string `json:"request_id,omitempty"`
	// Errors lists the problems found in the request by field, when known
	// (extension member).
	Errors []FieldError `json:"errors,omitempty"`
}

// FieldError is one problem with one field of a request.
type FieldError struct {
	// Field locates the problem in the request: "body", "output",
	// "expected_schema/properties/a", "acceptance_criteria[0].rule:1:7".
	Field string `json:"field"`
	// Message says what is wrong.
	Message string `json:"message"`
}

// Health is the body of GET /healthz and of GET /readyz when ready.
type Health struct {
	// Status is "ok".
	Status string `json:"status"`
}

// Capabilities is the body of GET /capabilities: what this server can
// check and within which limits.
type Capabilities struct {
	// Version is the server's version.
	Version string `json:"version"`
	// ValidationTypes are the names validation_types may hold: the
	// engine's layers and the types the specification plans.
	ValidationTypes []string `json:"validation_types"`
	// Layers are the layers this server runs, in order.
	Layers []Layer `json:"layers"`
	// Limits are the request limits.
	Limits Limits `json:"limits"`
	// Model is the LLM model that judges plain-language criteria, or
	// "deterministic" when none is configured (see docs/llm.md).
	Model string `json:"model"`
}

// Layer describes one validation layer.
type Layer struct {
	// Name is the validation type the layer implements.
	Name string `json:"name"`
	// Doc is the first line of the layer's documentation.
	Doc string `json:"doc"`
}

// Limits are the limits a request must stay within.
type Limits struct {
	// MaxBodyBytes is the largest request body, in bytes.
	MaxBodyBytes int64 `json:"max_body_bytes"`
	// MaxDepth is how deeply the request body may nest arrays and objects.
	MaxDepth int `json:"max_depth"`
}
