// Command forward is the floor of any out-of-process MCP gateway over
// stdio: it starts the command its arguments name (argument arrays, no
// shell) and copies lines between its own stdin and stdout and the
// child's, checking and changing nothing. bench/gateway -floor measures
// it beside judge gateway, so that the time judge adds can be read
// against the time a bare extra process and two pipe hops add.
package main

import (
	"bufio"
	"io"
	"log"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: forward COMMAND [ARG...]")
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		log.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	go copyLines(os.Stdout, out)
	copyLines(in, os.Stdin)
	in.Close()
	_ = cmd.Wait()
}

// copyLines writes each line of r to w as soon as it is read.
func copyLines(w io.Writer, r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			if _, werr := w.Write(line); werr != nil {
				return
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
	}
}
