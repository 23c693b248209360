package executor

import (
	"os"

	"golang.org/x/sys/unix"
)

// awaitExit returns once the process has exited, waiting on the runtime's
// poller through a pidfd rather than in waitid(2); Wait then reaps it at
// once. Since Go 1.26, a goroutine that enters a blocking system call just
// as a garbage collection starts to stop the world holds every goroutine
// until the call returns (docs/gateway.md, "An upstream that stops"), and
// a wait for a child lasts as long as the child: judge would stop for a
// script's whole run, or for an upstream server's whole life until the
// runtime's monitor woke. Where the kernel has no pidfds (Linux before
// 5.3) it returns at once, and Wait blocks as before.
func awaitExit(p *os.Process) {
	fd, err := unix.PidfdOpen(p.Pid, 0)
	if err != nil {
		return
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd") // non-blocking: the poller watches it
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// A pidfd reads ready once its process has exited; until then the
	// goroutine is parked on the poller, not in a system call.
	_ = rc.Read(func(fd uintptr) bool {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
		return err != nil && err != unix.EINTR || n > 0
	})
}
