package manifest

import (
	"net/url"
	"path/filepath"
	"testing"
)

func TestArtifactURI(t *testing.T) {
	t.Parallel()
	tests := []struct{ file, want string }{
		{"tools/weather.yaml", "tools/weather.yaml"},
		{"/abs/tools/x.yaml", "/abs/tools/x.yaml"},
		{"my tools/a#1 100%.yaml", "my%20tools/a%231%20100%25.yaml"},
		{"über/tool.yaml", "%C3%BCber/tool.yaml"},
		{"a:b/tool.yaml", "./a:b/tool.yaml"},
		{"q?x.yaml", "q%3Fx.yaml"},
	}
	if filepath.Separator == '/' {
		// On Windows, //host/share is a volume and becomes a file URI.
		tests = append(tests, struct{ file, want string }{"//tmp/x.json", "/tmp/x.json"})
	}
	for _, tt := range tests {
		if got := artifactURI(filepath.FromSlash(tt.file)); got != tt.want {
			t.Errorf("artifactURI(%q) = %q, want %q", tt.file, got, tt.want)
		}
		if u, err := url.Parse(artifactURI(filepath.FromSlash(tt.file))); err != nil || u.Host != "" || u.Fragment != "" || u.RawQuery != "" {
			t.Errorf("artifactURI(%q) parses as %+v (%v), not as a path", tt.file, u, err)
		}
	}
}
