// Package examples holds the example files of judge's documentation,
// embedded so that the console's playground loads them exactly as they
// are on disk (one copy, nothing to drift).
package examples

import "embed"

// FS holds the example outputs, schemas, rules and source documents at
// the top of this directory and under sources/ and schemas/, by their
// path here ("ticket.json", "sources/incident-4411.md").
//
//go:embed *.json *.md *.py sources schemas
var FS embed.FS
