package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Exit statuses.
const (
	// exitOK: the output is valid (validate) or the command succeeded.
	exitOK = 0
	// exitInvalid: the output is invalid or below --min-quality.
	exitInvalid = 1
	// exitBadInput: no verdict; the input, a flag or a file is bad, or the
	// command could not run.
	exitBadInput = 2
)

// exitError ends a command with an exit status. A nil err exits without a
// message, as when the result on stdout already says why.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// badInput marks err as bad input: exit status 2.
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// badInputf is badInput with a formatted message.
func badInputf(format string, args ...any) error {
	return badInput(fmt.Errorf(format, args...))
}

// exitCode maps a command's error to the process's exit status: 0 for nil,
// the code of an *exitError, 2 for any other error.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	if ee := (*exitError)(nil); errors.As(err, &ee) {
		return ee.code
	}
	return exitBadInput
}

// newRootCommand returns the judge command with its subcommands, reading
// from stdin and writing to stdout and stderr.
func newRootCommand(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "judge",
		Short: "Validate the outputs of LLM agents",
		Long: `judge validates the outputs of LLM agents against a JSON Schema, CEL rules
and plain-language acceptance criteria, and answers with a ValidationResult:
valid, confidence, issues (each with a message and a suggestion), passed and
failed criteria, quality score and metadata.

It needs no LLM, no network and no server: every check is deterministic, and
what it cannot decide it reports as not checked. A model, named by
JUDGE_LLM_BASE_URL and JUDGE_LLM_MODEL or by the llm section of the config
file (--config), judges plain-language criteria.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Version gives judge --version and -v, as judge version.
		Version: versionDetails(),
	}
	root.SetVersionTemplate("judge {{.Version}}\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return badInputf("%v (see '%s --help')", err, c.CommandPath())
	})
	addConfigFlag(root)
	initValidate(root)
	initServe(root)
	initGateway(root)
	initProxy(root)
	initTools(root)
	initCall(root)
	initTrace(root)
	initEval(root)
	initMetrics(root)
	initSchema(root)
	initVersion(root)
	return root
}

// Execute runs judge with args (without the program name) and returns the
// process's exit status: 0 valid or done, 1 invalid, 2 bad input or failure.
// Errors are written to stderr as "judge: <message>".
func Execute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if ee := (*exitError)(nil); err != nil && (!errors.As(err, &ee) || ee.err != nil) {
		fmt.Fprintf(stderr, "judge: %s\n", strings.TrimRight(err.Error(), "\n"))
	}
	return exitCode(err)
}
