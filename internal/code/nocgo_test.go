//go:build !cgo

package code_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/code"
)

// TestParseNoCgo runs only in a build without cgo (.ci/run runs it with
// CGO_ENABLED=0): Parse fails with ErrNoCgo, naming the fix, and still
// tells an unknown language apart.
func TestParseNoCgo(t *testing.T) {
	t.Parallel()
	_, err := code.Parse(context.Background(), code.Python, []byte("x = 1\n"))
	if !errors.Is(err, code.ErrNoCgo) || !strings.Contains(err.Error(), "CGO_ENABLED=1") || !strings.Contains(err.Error(), "gcc") {
		t.Errorf("Parse without cgo: %v, want ErrNoCgo naming the fix", err)
	}
	var le *code.LanguageError
	if _, err := code.Parse(context.Background(), "cobol", nil); !errors.As(err, &le) {
		t.Errorf("Parse(cobol) without cgo: %v, want a *LanguageError", err)
	}
}
