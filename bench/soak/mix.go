package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentjudge/judge/bench/internal/corpus"
	"github.com/agentjudge/judge/bench/internal/load"
)

// kindNames are the request kinds of the mix, in the order they are sent.
var kindNames = []string{"validate-valid", "validate-invalid", "validate-unique-schema", "validate-criteria",
	"validate-malformed", "check-valid", "check-invalid", "lint"}

// mix builds the requests of the soak from the corpus.
type mix struct {
	c *corpus.Corpus
}

func newMix(c *corpus.Corpus) *mix { return &mix{c: c} }

// criteriaOutput is a tool output with a schema and CEL acceptance
// criteria: a page of search results, as an MCP tool returns it.
const criteriaOutput = `{
  "output": {"total_count": 2, "items": [
    {"number": 4711, "title": "Server drops requests under load", "state": "open", "user": {"login": "ada"}},
    {"number": 4702, "title": "Document the metrics endpoint", "state": "closed", "user": {"login": "grace"}}]},
  "expected_schema": {"type": "object", "required": ["total_count", "items"], "properties": {
    "total_count": {"type": "integer", "minimum": 0},
    "items": {"type": "array", "items": {"type": "object", "required": ["number", "title", "state"],
      "properties": {"number": {"type": "integer"}, "title": {"type": "string", "minLength": 1}, "state": {"enum": ["open", "closed"]}}}}}},
  "acceptance_criteria": [
    {"description": "The count matches the items", "rule": "output.total_count == size(output.items)"},
    {"description": "Every item has a title", "rule": "output.items.all(i, size(i.title) > 0)"}]
}`

// next returns connection conn's i-th request.
func (m *mix) next(conn, i int) load.Request {
	k := (conn + i) % len(kindNames)
	cs := m.c.Cases[(conn*31+i)%len(m.c.Cases)]
	kind := kindNames[k]
	switch kind {
	case "validate-valid":
		return load.Request{Path: "/validate", Kind: kind, Body: corpus.ValidateBody(cs.Schema, cs.Valid), Check: verdict(true, nil)}
	case "validate-invalid":
		return load.Request{Path: "/validate", Kind: kind, Body: corpus.ValidateBody(cs.Schema, cs.Invalid), Check: verdict(false, nil)}
	case "validate-unique-schema":
		return load.Request{Path: "/validate", Kind: kind, Body: corpus.ValidateBody(unique(cs.Schema, conn, i), cs.Valid), Check: verdict(true, nil)}
	case "validate-criteria":
		return load.Request{Path: "/validate", Kind: kind, Body: []byte(criteriaOutput), Check: verdict(true, nil)}
	case "validate-malformed":
		return load.Request{Path: "/validate", Kind: kind, Body: []byte(`{"output": {"a": 1}, "expected_schema": {"type": "object"`), Check: status(http.StatusBadRequest)}
	case "check-valid", "check-invalid":
		args := cs.Valid
		if kind == "check-invalid" {
			args = cs.Invalid
		}
		body, _ := json.Marshal(map[string]any{"tool": cs.Name, "arguments": json.RawMessage(args), "tools": []any{cs.MCPTool()}})
		return load.Request{Path: "/v1/calls/check", Kind: kind, Body: body, Check: verdict(kind == "check-valid", func(b []byte) json.RawMessage {
			var r struct{ Result json.RawMessage }
			_ = json.Unmarshal(b, &r)
			return r.Result
		})}
	default: // lint
		return load.Request{Path: "/v1/tools/lint", Kind: kind, Body: lintBody(cs, conn, i), Check: lintCheck}
	}
}

// unique returns schema with a $comment naming conn and i, so that its
// bytes, and the compiled-schema cache's key, are new.
func unique(schema json.RawMessage, conn, i int) json.RawMessage {
	s := strings.TrimSpace(string(schema))
	return json.RawMessage(fmt.Sprintf(`{"$comment": "soak %d-%d", %s`, conn, i, s[1:]))
}

// lintBody is a registry of an MCP server and one of its tools, with the
// corpus tool's input schema, under ids unique to conn and i.
func lintBody(cs corpus.Case, conn, i int) []byte {
	id := fmt.Sprintf("t%d_%d", conn, i)
	server := "tool_id: srv_" + id + "\ntool_type: mcp_server\nversion: \"1.0.0\"\ndescription: The soak's MCP server\nexecutor: subprocess\nconfig:\n  transport: stdio\n  command: github-mcp-server\n"
	tool := "tool_id: " + id + "\ntool_type: mcp_tool\nversion: \"1.0.0\"\ndescription: github-mcp-server tool " + cs.Name +
		"\nexecutor: srv_" + id + "\nconfig:\n  mcp_tool_name: " + cs.Name + "\ninput_schema: " + string(cs.Schema) + "\n"
	body, _ := json.Marshal(map[string]any{"manifests": []map[string]string{
		{"path": "servers/srv_" + id + ".yaml", "content": server}, {"path": "tools/" + id + ".yaml", "content": tool}}})
	return body
}

// checkResult is what the soak reads of a ValidationResult.
type checkResult struct {
	Valid      *bool   `json:"valid"`
	Confidence float64 `json:"confidence"`
	Issues     []struct {
		Type    string `json:"type"`
		Rule    string `json:"rule"`
		Message string `json:"message"`
	} `json:"issues"`
}

// classify returns "fail-open" when a valid result did not run every
// layer it asked for, "wrong-verdict" when the verdict is not want, and
// "" when the result is as expected.
func classify(raw json.RawMessage, want bool) string {
	var r checkResult
	if err := json.Unmarshal(raw, &r); err != nil || r.Valid == nil {
		return "unexpected-status"
	}
	layerFailed := false
	for _, is := range r.Issues {
		if is.Rule == "engine.layer_failed" || is.Type == "layer_failed" || strings.Contains(is.Message, "could not start") {
			layerFailed = true
		}
	}
	if *r.Valid && (layerFailed || r.Confidence == 0) {
		return "fail-open"
	}
	if *r.Valid != want {
		return "wrong-verdict"
	}
	return ""
}

// verdict checks a 200 whose result (the body, or what pick returns of
// it) has the verdict want.
func verdict(want bool, pick func([]byte) json.RawMessage) func(int, []byte) string {
	return func(code int, body []byte) string {
		if code != http.StatusOK {
			return "unexpected-status"
		}
		raw := json.RawMessage(body)
		if pick != nil {
			raw = pick(body)
		}
		return classify(raw, want)
	}
}

// status checks that the answer has status want.
func status(want int) func(int, []byte) string {
	return func(code int, _ []byte) string {
		if code != want {
			return "unexpected-status"
		}
		return ""
	}
}

// lintCheck checks a lint of two valid tools.
func lintCheck(code int, body []byte) string {
	if code != http.StatusOK {
		return "unexpected-status"
	}
	var r struct {
		Summary struct{ Tools, Invalid int } `json:"summary"`
	}
	if json.Unmarshal(body, &r) != nil || r.Summary.Tools != 2 || r.Summary.Invalid != 0 {
		return "wrong-verdict"
	}
	return ""
}
