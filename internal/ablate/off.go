//go:build !ablate

package ablate

// Off reports whether rule is turned off: never, in a build without the
// ablate tag.
func Off(string) bool { return false }
