//go:build ablate

package ablate

import (
	"os"
	"slices"
	"strings"
)

// Off reports whether rule is named in JUDGE_ABLATE.
func Off(rule string) bool {
	return slices.Contains(strings.Split(os.Getenv("JUDGE_ABLATE"), ","), rule)
}
