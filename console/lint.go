package console

import (
	"cmp"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/manifest"
)

// Lint is what a lint report shows: the lint of a tool registry.
type Lint struct {
	// Title names the report, as the directories or the file linted.
	Title  string
	Report *manifest.Report
}

// WriteLint writes l as one self-contained HTML page: the summary, the
// issues by type, then each tool with its issues at their file and line.
func WriteLint(w io.Writer, l Lint) error {
	if l.Report == nil {
		return errors.New("console: no lint report")
	}
	tmpl, err := parse(lintHTML)
	if err != nil {
		return err
	}
	return execute(w, tmpl, "lint", buildLint(l))
}

// lintView is the lint template's data.
type lintView struct {
	page
	Stats  []stat
	Charts []chart
	Tools  []toolView
}

// toolView is one linted tool.
type toolView struct {
	Index                   int
	Key                     string
	Valid                   bool
	Errors, Warnings, Infos int
	Issues                  []finding
}

func buildLint(l Lint) lintView {
	title := "judge tools lint"
	if l.Title != "" {
		title += ": " + l.Title
	}
	rep := l.Report
	s := rep.Summary
	v := lintView{page: newPage(title), Stats: []stat{
		{Label: "Tools", N: strconv.Itoa(s.Tools)},
		{Label: "Valid tools", N: strconv.Itoa(s.Valid)},
		{Label: "Invalid tools", N: strconv.Itoa(s.Invalid)},
		{Label: "Errors", N: strconv.Itoa(s.Errors)},
		{Label: "Warnings", N: strconv.Itoa(s.Warnings)},
		{Label: "Notes", N: strconv.Itoa(s.Infos)},
	}}
	byType := map[string]int{}
	for i, key := range rep.Keys() {
		r := rep.Results[key]
		if r == nil {
			continue
		}
		tv := toolView{Index: i, Key: key, Valid: r.Valid, Errors: r.Metadata.ErrorCount, Warnings: r.Metadata.WarningCount, Infos: r.Metadata.InfoCount}
		issues := slices.Clone(r.Issues)
		slices.SortStableFunc(issues, manifest.ByPosition)
		for _, is := range issues {
			tv.Issues = append(tv.Issues, newFinding(is))
			byType[string(is.Type)]++
		}
		v.Tools = append(v.Tools, tv)
	}
	var bars []bar
	for k, n := range byType {
		bars = append(bars, bar{Label: k, N: float64(n)})
	}
	slices.SortFunc(bars, func(a, b bar) int { return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Label, b.Label)) })
	v.Charts = []chart{newChart("chart-types", "Issues by type", "issues", bars)}
	return v
}
