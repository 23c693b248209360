//go:build !unix

package mcpstdio

import (
	"errors"
	"syscall"
)

// rawWriter returns nil: writes go through the writer.
func rawWriter(any) syscall.RawConn { return nil }

func writeRaw(syscall.RawConn, []byte) error {
	return errors.New("mcpstdio: no raw writes on this system")
}
