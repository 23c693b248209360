package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server"
)

// A Server answers POST /validate with the output's ValidationResult: an
// invalid output is still a 200, with the findings in issues.
func Example() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	s := server.New(e, server.Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	body := `{
		"output": {"name": "Ada"},
		"expected_schema": {"type": "object", "required": ["name", "email"]},
		"acceptance_criteria": [{"description": "Has a name", "rule": "has(output.name)"}]
	}`
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, ts.URL+"/validate", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()

	var res result.ValidationResult
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
	fmt.Println("valid:", res.Valid)
	for _, is := range res.Issues {
		fmt.Printf("%s %s at %s\n", is.Severity, is.Type, is.Location)
	}
	fmt.Println("passed:", res.PassedCriteria)
	// Output:
	// 200 application/json
	// valid: false
	// error missing_field at root
	// passed: [Has a name]
}

// Errors are RFC 9457 problem documents.
func Example_problem() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(server.New(e, server.Options{}).Handler())
	defer ts.Close()

	resp, err := http.Post(ts.URL+"/validate", "application/json", strings.NewReader(`{"output": {"a": 1,}}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var p struct {
		Type   string `json:"type"`
		Status int    `json:"status"`
		Detail string `json:"detail"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		panic(err)
	}
	fmt.Println(resp.Header.Get("Content-Type"))
	fmt.Println(p.Status, p.Type)
	fmt.Println(p.Detail)
	// Output:
	// application/problem+json
	// 400 https://agentjudge.dev/problems/invalid-request
	// body: line 1, column 20: invalid character '}' looking for beginning of object key string
}
