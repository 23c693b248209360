package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestUsageGuidanceRoutes sends usage guidance through POST
// /v1/calls/check (the repair names the guidance of the tool and of the
// parameter at fault) and POST /v1/tools/lint (a description that only
// restates the name is flagged, one with when_to_use is not).
func TestUsageGuidanceRoutes(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tools := `[{"name": "get_events", "description": "Read calendar events by id.", "when_to_use": "The user asks about meetings",
	  "inputSchema": {"type": "object", "required": ["ids"], "properties": {
	    "ids": {"type": "array", "items": {"type": "string"}, "x-intent": "Ids a search returned", "x-anti-patterns": ["event titles"]}}}}]`
	m := checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/check", `{"tool": "get_events", "arguments": {"ids": [1]}, "tools": `+tools+`}`, nil))
	var rep struct {
		WhenToUse string `json:"when_to_use"`
		Fixes     []struct {
			Location, Intent string
			AntiPatterns     []string `json:"anti_patterns"`
		}
	}
	if err := json.Unmarshal(m["repair"], &rep); err != nil {
		t.Fatal(err)
	}
	if rep.WhenToUse != "The user asks about meetings" || len(rep.Fixes) != 1 || rep.Fixes[0].Location != "ids[0]" ||
		rep.Fixes[0].Intent != "Ids a search returned" || len(rep.Fixes[0].AntiPatterns) != 1 {
		t.Errorf("repair %s, want the tool's and the parameter's guidance", m["repair"])
	}

	body := `{"manifests": [
	  {"path": "weak.yaml", "content": "tool_id: get_tasks\ntool_type: api\nversion: \"1.0.0\"\nexecutor: http_client\ndescription: Get tasks\nconfig: {method: GET, url_template: \"https://example.com/tasks\"}\n"},
	  {"path": "guided.yaml", "content": "tool_id: get_notes\ntool_type: api\nversion: \"1.0.0\"\nexecutor: http_client\ndescription: Get notes\nwhen_to_use: The user asks what they wrote down\nconfig: {method: GET, url_template: \"https://example.com/notes\"}\n"}]}`
	results, _ := lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", body, nil))
	has := func(id string) bool {
		for _, is := range results[id].Issues {
			if is.Rule == "guidance.description" && strings.HasPrefix(is.Location, "weak.yaml:5:") {
				return true
			}
		}
		return false
	}
	if !has("get_tasks") || has("get_notes") {
		t.Errorf("weak description flagged on get_tasks %v (want true), get_notes %v (want false): %+v", has("get_tasks"), has("get_notes"), results)
	}
}
