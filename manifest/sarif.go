package manifest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/result"
)

// SARIF 2.1.0 identifiers.
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// DocsURL is where each issue type's page lives; a rule's helpUri is
	// DocsURL + type + ".md".
	DocsURL = "https://github.com/agentjudge/judge/blob/main/docs/issues/"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
	HelpURI          string       `json:"helpUri"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
	// Properties carry the tool key, the issue type and the suggestion
	// (a SARIF fix needs artifact changes, which a suggestion is not).
	Properties map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

// SplitLocation splits an issue location "file:line:column" into its
// parts; ok is false for a location of another form.
func SplitLocation(loc string) (file string, line, col int, ok bool) {
	i := strings.LastIndexByte(loc, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	c, err := strconv.Atoi(loc[i+1:])
	if err != nil {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(loc[:i], ':')
	if j < 0 {
		return "", 0, 0, false
	}
	l, err := strconv.Atoi(loc[j+1 : i])
	if err != nil || l < 1 || c < 1 {
		return "", 0, 0, false
	}
	return loc[:j], l, c, true
}

// ByPosition orders issues by file, then line and column as numbers (see
// [SplitLocation]); issues whose locations are not both of that form by
// their location as text. The lint reports sort with it.
func ByPosition(a, b result.Issue) int {
	fa, la, ca, okA := SplitLocation(a.Location)
	fb, lb, cb, okB := SplitLocation(b.Location)
	if !okA || !okB {
		return strings.Compare(a.Location, b.Location)
	}
	return cmp.Or(strings.Compare(fa, fb), cmp.Compare(la, lb), cmp.Compare(ca, cb))
}

// WriteSARIF writes rep as a SARIF 2.1.0 log with one run of the tool
// "judge" (version toolVersion): a rule per issue rule (or issue type when
// it has none), a result per issue at its file, line and column, with the
// suggestion in the result's properties.
func WriteSARIF(w io.Writer, rep *Report, toolVersion string) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "judge", Version: toolVersion,
			InformationURI: "https://github.com/agentjudge/judge", Rules: []sarifRule{}}},
		Results: []sarifResult{},
	}
	ruleIndex := map[string]int{}
	for _, key := range rep.Keys() {
		for _, is := range rep.Results[key].Issues {
			id := is.Rule
			if id == "" {
				id = string(is.Type)
			}
			idx, ok := ruleIndex[id]
			if !ok {
				meaning := string(is.Type)
				if ti, found := result.Lookup(is.Type); found {
					meaning = ti.Meaning
				}
				idx = len(run.Tool.Driver.Rules)
				ruleIndex[id] = idx
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id,
					ShortDescription: sarifMessage{Text: meaning}, HelpURI: DocsURL + string(is.Type) + ".md"})
			}
			res := sarifResult{RuleID: id, RuleIndex: idx, Level: sarifLevel(is.Severity),
				Message:    sarifMessage{Text: is.Message},
				Properties: map[string]string{"tool": key, "type": string(is.Type)}}
			if file, line, col, ok := SplitLocation(is.Location); ok {
				res.Locations = []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifact{URI: artifactURI(file)},
					Region:           &sarifRegion{StartLine: line, StartColumn: col}}}}
			}
			if is.Suggestion != "" {
				res.Properties["suggestion"] = is.Suggestion
			}
			run.Results = append(run.Results, res)
		}
	}
	log := sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return fmt.Errorf("manifest: sarif: %w", err)
	}
	return nil
}

// artifactURI turns the file path of an issue's location into the URI
// reference SARIF's artifactLocation.uri must be: slashes for separators,
// and each character a URI may not hold as it is (a space, '%', '#', '?',
// a letter outside ASCII) percent-encoded, so that "my tools/a#1.yaml" is
// not read as a path and a fragment. A relative path stays relative; a
// path with a drive letter (C:\tools) becomes a file URI.
func artifactURI(file string) string {
	p := filepath.ToSlash(file)
	if vol := filepath.VolumeName(file); vol != "" {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	// "//tmp/x.json" (as --mcp may name a file) would read as the host
	// "tmp"; it is the file /tmp/x.json.
	if strings.HasPrefix(p, "//") {
		p = "/" + strings.TrimLeft(p, "/")
	}
	// String writes "./" before a first segment holding ':', which would
	// otherwise read as a scheme.
	return (&url.URL{Path: p}).String()
}

func sarifLevel(s result.Severity) string {
	switch s {
	case result.Error:
		return "error"
	case result.Warning:
		return "warning"
	}
	return "note"
}
