package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// nonblocking makes a pipe's descriptor non-blocking and restore makes it
// block again; a regular file is left as it is.
func TestNonblocking(t *testing.T) {
	t.Parallel()
	// blocks reads the flag without Fd, which would set it.
	blocks := func(f *os.File) bool {
		raw, err := f.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var flags int
		if err := raw.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil {
			t.Fatal(err)
		}
		return flags&unix.O_NONBLOCK == 0
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if err := syscall.SetNonblock(int(w.Fd()), false); err != nil {
		t.Fatal(err)
	}
	f, restore, ok := nonblocking(w)
	if !ok || blocks(f) {
		t.Fatalf("a pipe: ok %v, blocks %v", ok, ok && blocks(f))
	}
	restore()
	if !blocks(w) {
		t.Error("restore left the pipe non-blocking")
	}
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, _, ok := nonblocking(file); ok {
		t.Error("a regular file was made non-blocking")
	}
}
