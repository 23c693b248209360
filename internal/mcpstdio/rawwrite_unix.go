//go:build unix

package mcpstdio

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawWriter returns the raw connection of w when w is a file whose
// descriptor does not block (a pipe from os.Pipe, a stdout made
// non-blocking), else nil.
func rawWriter(w any) syscall.RawConn {
	sc, ok := w.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	nonblocking := false
	if err := raw.Control(func(fd uintptr) {
		flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		nonblocking = err == nil && flags&unix.O_NONBLOCK != 0
	}); err != nil || !nonblocking {
		return nil
	}
	return raw
}

// writeRaw writes buf with write(2) called directly, not through the
// runtime's system-call hooks: a write to a descriptor that does not
// block returns at once or with EAGAIN, so the processor need not be
// handed off, while a write that wakes the reader on the same CPU can
// keep the thread off it for a while, long enough for the runtime to
// take the processor back and wake another thread to spin for work,
// several context switches per message. On EAGAIN (a full pipe) it waits
// for the runtime's poller and goes on.
func writeRaw(raw syscall.RawConn, buf []byte) error {
	n := 0
	var werr error
	err := raw.Write(func(fd uintptr) bool {
		for n < len(buf) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&buf[n])), uintptr(len(buf)-n))
			switch e {
			case 0:
				n += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				werr = e
				return true
			}
		}
		return true
	})
	if werr != nil {
		return werr
	}
	return err
}
