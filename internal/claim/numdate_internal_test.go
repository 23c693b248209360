package claim

import "testing"

// versionBefore answers as versionWords[lastWord(s)] does, reading only
// the end of s.
func TestVersionBefore(t *testing.T) {
	for _, s := range []string{"", " ", "version", "Version ", "see version\t", "releases", "xreleases ", "(v ", `"build`,
		"a releases", "aaaaaaaaaaversion ", "prerelease ", "é version", "éé", "v", "ve", "the v\n", "X,X,X,X,X,X,X,X,X,X,"} {
		if got, want := versionBefore(s), versionWords[lastWord(s)]; got != want {
			t.Errorf("versionBefore(%q) = %v, lastWord's %v", s, got, want)
		}
	}
}
