package httpapi

import (
	"errors"
	"net/http"
	"testing"
)

// TestCheckMediaType covers what clients send and what is refused, the
// types taken without parsing among them.
func TestCheckMediaType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ct, ce string
		ok     bool
	}{
		{"", "", true},
		{"application/json", "", true},
		{"application/json; charset=utf-8", "", true},
		{"application/json;charset=UTF-8", "", true},
		{"Application/JSON", "", true},
		{"application/problem+json", "", true},
		{"application/json; charset=latin1", "", false},
		{"application/x-www-form-urlencoded", "", false},
		{"text/plain", "", false},
		{"application/json;", "", true},
		{"application/json; charset", "", false},
		{"application/json", "gzip", false},
		{"application/json", "identity", true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.ct != "" {
			h.Set("Content-Type", tt.ct)
		}
		if tt.ce != "" {
			h.Set("Content-Encoding", tt.ce)
		}
		err := CheckMediaType(h)
		if (err == nil) != tt.ok {
			t.Errorf("Content-Type %q, Content-Encoding %q: err %v, want ok %v", tt.ct, tt.ce, err, tt.ok)
		}
		var mte *MediaTypeError
		if err != nil && !errors.As(err, &mte) {
			t.Errorf("Content-Type %q: %T, want *MediaTypeError", tt.ct, err)
		}
	}
}

// FuzzCheckMediaType holds that the types accepted without parsing are
// accepted by the parse too, and that any other type gets the parse's
// answer.
func FuzzCheckMediaType(f *testing.F) {
	for _, s := range []string{"application/json", "application/json; charset=utf-8", "application/json;charset=utf-8",
		"application/vnd.api+json", "text/plain", "application/json; charset=\"utf-8\"", "application/json; charset=utf-16", ";", "application/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ct string) {
		err := CheckMediaType(http.Header{"Content-Type": {ct}})
		if ct == "" {
			if err != nil {
				t.Fatalf("no Content-Type: %v", err)
			}
			return
		}
		parsed := checkContentType(ct)
		if (err == nil) != (parsed == nil) {
			t.Fatalf("Content-Type %q: CheckMediaType %v, the parse %v", ct, err, parsed)
		}
	})
}
