package layer

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// MustExtractDoc returns the section of a package comment, given as the
// source of a doc.go file, under the heading "# Layer name", up to the next
// heading, as golang.org/x/tools' analysisutil.MustExtractDoc does for
// analyzers. A layer embeds its doc.go and sets Doc from it, so godoc and
// the layer's Doc agree. It panics when the heading is missing: call it only
// when initializing a package variable.
func MustExtractDoc(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic(fmt.Sprintf("layer %s: doc.go has no package comment: %v", name, err))
	}
	_, after, ok := strings.Cut(f.Doc.Text(), "\n# Layer "+name+"\n")
	if !ok {
		panic("layer " + name + ": doc.go has no heading '# Layer " + name + "'")
	}
	if i := strings.Index(after, "\n# "); i >= 0 {
		after = after[:i]
	}
	return strings.TrimSpace(after)
}
