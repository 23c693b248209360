package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/jsonvalue"
)

// streamChunk is how many bytes judge validate --stream asks for at once;
// a read returns what has arrived, up to that.
const streamChunk = 32 << 10

// runValidateStream is judge validate --stream: it reads the output named
// by args (stdin when none or "-") as it arrives, writes each early event
// to out as one JSON line as soon as it is certain, and at the end the
// final event, whose result is what judge validate prints. Its errors and
// exit codes are runValidate's; an output that opens an object or an
// array and turns out malformed stops the reading at the bad byte.
func runValidateStream(ctx context.Context, params validateParams, args []string, opts []judge.Option, schemaFiles []judge.SchemaFile, out io.Writer) error {
	if params.format.value == formatText {
		return badInputf("--stream writes JSON lines: --format text does not apply")
	}
	name, display := "-", "<stdin>"
	var in io.Reader = params.stdin
	if len(args) > 0 && args[0] != "-" {
		name, display = args[0], args[0]
		f, err := os.Open(name)
		if err != nil {
			return badInput(fileError(name, "output", err))
		}
		defer f.Close()
		in = f
	}
	if in == nil {
		return badInputf("no output to validate: stdin is closed")
	}
	req := &judge.Request{}
	src := &origins{}
	if err := addRequestParts(params, req, src); err != nil {
		return err
	}
	engine, err := judge.New(opts...)
	if err != nil {
		return err
	}
	st := engine.Stream(req)
	enc := json.NewEncoder(out)
	write := func(evs []judge.StreamEvent) error {
		for _, ev := range evs {
			if err := enc.Encode(ev); err != nil {
				return fmt.Errorf("writing an event: %w", err)
			}
		}
		return nil
	}
	buf := make([]byte, streamChunk)
	for {
		n, rerr := in.Read(buf)
		if int64(len(st.Bytes())+n) > maxInputBytes {
			return badInputf("%s: the output is larger than the limit of %s", display, sizeString(maxInputBytes))
		}
		if n > 0 {
			evs, err := st.Write(buf[:n])
			if werr := write(evs); werr != nil {
				return werr
			}
			var se *jsonvalue.SyntaxError
			if errors.As(err, &se) {
				return badInputf("%s:%d:%d: the output is not valid JSON (--schema expects JSON): %s", display, se.Line, se.Col, se.Msg)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return badInput(fileError(display, "output", rerr))
		}
	}
	if err := write(st.End()); err != nil {
		return err
	}
	// The final event: what judge validate makes of the whole output.
	data := st.Bytes()
	whole := params
	if name == "-" {
		whole.stdin, args = bytes.NewReader(data), []string{"-"}
	}
	full, src, err := buildRequest(whole, args)
	if err != nil {
		return err
	}
	src.schemas = map[string]fileText{}
	for _, f := range schemaFiles {
		src.schemas[f.URI] = fileText{name: f.Path, data: f.Data}
	}
	res, err := validateRequest(ctx, engine, full, src)
	if err != nil {
		return err
	}
	if err := write([]judge.StreamEvent{{At: int64(len(data)), Final: true, Result: res}}); err != nil {
		return err
	}
	warnModelFailed(params.stderr, res)
	return verdict(res, params.minQuality, params.minConf)
}
