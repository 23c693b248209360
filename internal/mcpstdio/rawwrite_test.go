//go:build unix

package mcpstdio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A pipe from os.Pipe is written directly; a message larger than the
// pipe holds waits for the reader (EAGAIN, then the poller) and arrives
// whole; a reader gone is EPIPE. A descriptor that blocks (a file) is not
// written directly.
func TestRawWrite(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	raw := rawWriter(w)
	if raw == nil {
		t.Fatal("a pipe from os.Pipe is not written directly")
	}
	msg := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MB, far over a pipe's buffer
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	if err := writeRaw(raw, msg); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b := <-got; !bytes.Equal(b, msg) {
		t.Fatalf("read %d bytes, want the %d written", len(b), len(msg))
	}
	if err := writeRaw(raw, []byte("x")); err == nil {
		t.Error("a write to a closed pipe succeeded")
	}

	// A reader gone is an error (EPIPE), not the process's end.
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	r2.Close()
	if err := writeRaw(rawWriter(w2), []byte("x")); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("a write with the reader gone: %v, want EPIPE", err)
	}

	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if rawWriter(f) != nil {
		t.Error("a file that blocks is written directly")
	}
	if rawWriter(struct{ io.Writer }{io.Discard}) != nil {
		t.Error("a writer without a descriptor has a raw connection")
	}
}
