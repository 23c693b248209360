package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/agentjudge/judge/server/api"
	"github.com/agentjudge/judge/server/history"
)

// TestDashboardAndMetrics sends validations and tool calls to a real
// server and finds them counted alike in GET /v1/dashboard and /metrics:
// per layer, per tool and by outcome, with tool names past the limit
// grouped as other.
func TestDashboardAndMetrics(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{Token: "k"})
	auth := map[string]string{"Authorization": "Bearer k"}
	if r := do(t, ts, http.MethodGet, "/v1/dashboard", "", nil); r.status != http.StatusUnauthorized {
		t.Fatalf("GET /v1/dashboard without the token: %d, want 401", r.status)
	}
	mustResult(t, do(t, ts, http.MethodPost, "/validate", `{"output": {"name": "Ada", "age": 3}, "expected_schema": `+personSchema+`}`, auth))
	mustResult(t, do(t, ts, http.MethodPost, "/validate", `{"output": {"name": "Ada"}, "expected_schema": `+personSchema+`}`, auth))
	mustResult(t, do(t, ts, http.MethodPost, "/validate", `{"output": "{\"name\": 5}", "expected_schema": `+personSchema+`, "acceptance_criteria": [{"id": "c", "description": "has a name", "rule": "has(output.name)"}]}`, auth))
	tools := specTools(t)
	checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/check", `{"tool": "home_assistant", "arguments": {"action": "call_tool"}, "tools": `+tools+`}`, auth))
	checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/check", `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "tools": `+tools+`}`, auth))
	checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/outcome", `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "result": {"content": [{"type": "text", "text": "calendar offline"}], "isError": true}, "tools": `+tools+`}`, auth))
	// More tool names than the limit: the later ones count as other.
	for i := range history.ToolLimit + 3 {
		checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/check", fmt.Sprintf(`{"tool": "t%d", "arguments": {}, "tools": [{"name": "t%d", "inputSchema": {"type": "object"}}]}`, i, i), auth))
	}

	r := do(t, ts, http.MethodGet, "/v1/dashboard", "", auth)
	if r.status != http.StatusOK {
		t.Fatalf("GET /v1/dashboard: %d %s", r.status, r.body)
	}
	var d api.Dashboard
	if err := json.Unmarshal(r.body, &d); err != nil {
		t.Fatal(err)
	}
	tot := d.Totals
	if tot.Validations != 3 || tot.Valid != 1 || tot.LatencyMS == nil {
		t.Errorf("validations %d valid %d latency %v, want 3, 1 and percentiles", tot.Validations, tot.Valid, tot.LatencyMS)
	}
	if tot.Issues["missing_field"].Error != 2 || tot.Issues["output_parsed"].Info != 1 {
		t.Errorf("issues %v, want two missing_field errors and the note of the output parsed", tot.Issues)
	}
	if l := tot.Layers["schema"]; l.Runs != 3 || l.Error < 2 {
		t.Errorf("schema layer %+v, want 3 runs and at least 2 errors", l)
	}
	if l := tot.Layers["criteria"]; l.Runs != 1 {
		t.Errorf("criteria layer %+v, want 1 run", l)
	}
	c := tot.Calls
	if c == nil || c.Checks != 5+history.ToolLimit || c.Invalid != 1 || c.Outcomes["FAILED"] != 1 {
		t.Fatalf("calls %+v", c)
	}
	if c.Tools[0].Tool != "get_events" || c.Tools[0].Failures != 1 {
		t.Errorf("the tool that fails most: %+v", c.Tools[0])
	}

	mfs := scrape(t, do(t, ts, http.MethodGet, "/metrics", "", auth))
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{MetricLayerRuns, map[string]string{"layer": "schema", "failed": "false"}, 3},
		{MetricLayerIssues, map[string]string{"layer": "schema", "type": "missing_field", "severity": "error"}, 2},
		{MetricToolCalls, map[string]string{"endpoint": "check", "tool": "home_assistant", "status": "invalid"}, 1},
		{MetricToolCalls, map[string]string{"endpoint": "outcome", "tool": "get_events", "status": "FAILED"}, 1},
		{MetricToolCalls, map[string]string{"endpoint": "check", "tool": "other", "status": "valid"}, 5},
	} {
		m := find(mfs, tc.name, tc.labels)
		if m == nil || m.GetCounter().GetValue() != tc.want {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.labels, m.GetCounter(), tc.want)
		}
	}
	if m := find(mfs, MetricLayerDuration, map[string]string{"layer": "schema"}); m == nil || m.GetHistogram().GetSampleCount() != 3 {
		t.Errorf("%s{layer=schema} = %v, want 3 samples", MetricLayerDuration, m)
	}
	names := map[string]bool{}
	for _, m := range mfs[MetricToolCalls].GetMetric() {
		for _, lp := range m.GetLabel() {
			if lp.GetName() == "tool" {
				names[lp.GetValue()] = true
			}
		}
	}
	if len(names) != history.ToolLimit+1 {
		t.Errorf("%d tool label values, want %d (the limit and other)", len(names), history.ToolLimit+1)
	}
}
