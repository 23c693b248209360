package toolscan

import (
	"fmt"
	"slices"
	"time"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// AddToReport scans the MCP definitions document data (named file, as
// [manifest.LintMCP] names it) and adds each tool's findings to its result
// in rep, recounting the summary: `judge tools lint --mcp` reports
// poisoning beside the definition checks. A tool whose result rep lacks
// gets one.
func AddToReport(rep *manifest.Report, file string, data []byte) error {
	start := time.Now()
	defs, err := Decode(data)
	if err != nil {
		return err
	}
	count := map[string]int{}
	for _, d := range defs {
		count[d.Name]++
	}
	for i, issues := range Scan(defs) {
		// The key LintMCP gives the tool: its name, or its place when the
		// name is missing or shared.
		key := defs[i].Name
		if key == "" || count[key] > 1 {
			key = fmt.Sprintf("%s#/tools/%d", file, i)
		}
		old := rep.Results[key]
		b := result.NewBuilder().Add(issues...)
		ran := []string{ValidationType}
		if old != nil {
			b.Add(old.Issues...).Confidence(old.Confidence)
			ran = append(slices.Clone(old.Metadata.ValidationTypesRun), ValidationType)
			start = start.Add(-time.Duration(old.Metadata.DurationMS * float64(time.Millisecond)))
		} else {
			rep.Summary.ByType["mcp_definition"]++
		}
		rep.Results[key] = b.Ran(ran...).Duration(time.Since(start)).Build()
		start = time.Now()
	}
	s := manifest.Summary{ByType: rep.Summary.ByType}
	for _, r := range rep.Results {
		s.Tools++
		if r.Valid {
			s.Valid++
		} else {
			s.Invalid++
		}
		s.Errors += r.Metadata.ErrorCount
		s.Warnings += r.Metadata.WarningCount
		s.Infos += r.Metadata.InfoCount
	}
	rep.Summary = s
	return nil
}

// ManifestCheck is the scan as a check of the manifest lint
// ([manifest.LintOptions] Checks), as judge tools lint and POST
// /v1/tools/lint run it: each manifest's fields a model is shown (name,
// description, parameters) are scanned like an MCP definition, the other
// tools of reg known to the shadowing rule, and each finding is placed at
// its line and column in the manifest.
func ManifestCheck(reg *manifest.Registry) manifest.Check {
	var names []string
	for _, t := range reg.Tools() {
		if t.Form != manifest.FormBuiltin && t.ID != "" {
			names = append(names, t.ID)
		}
	}
	return manifest.Check{Name: ValidationType, Run: func(t *manifest.Tool, fields map[string]any) []result.Issue {
		return ScanTool(Definition{Name: t.ID, Fields: fields}, names, "")
	}}
}
