//go:build !cgo

package code

import (
	"context"
	"fmt"
)

// Parse, in a build without cgo, cannot parse: the tree-sitter grammars are
// C code that only a cgo build compiles. It returns a *LanguageError for
// an unknown language, else an error wrapping ErrNoCgo that names the fix.
func Parse(ctx context.Context, lang Language, src []byte) (*File, error) {
	if _, ok := LookupLanguage(string(lang)); !ok {
		return nil, &LanguageError{Name: string(lang)}
	}
	return nil, fmt.Errorf("%w: install a C compiler (gcc or clang; on Debian or Ubuntu: apt-get install gcc) and rebuild judge with CGO_ENABLED=1", ErrNoCgo)
}
