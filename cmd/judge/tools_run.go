package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// toolsRunParams are the flags of judge tools run.
type toolsRunParams struct {
	tools         []string      // --tools: directories of tool manifests
	session       string        // --session
	timeout       time.Duration // --timeout: a call's timeout when its manifest gives none
	allowLoopback bool          // --allow-loopback
	allowPrivate  bool          // --allow-private
	format        *enumFlag
	stdin         io.Reader
	config        string    // --config: the config file; "" = JUDGE_CONFIG or the default
	stderr        io.Writer // where the config file's warnings go
	getenv        func(string) string
}

func newToolsRunParams() toolsRunParams {
	return toolsRunParams{format: newEnumFlag("", formatJSON, formatText), stdin: os.Stdin, stderr: os.Stderr, getenv: os.Getenv}
}

func initToolsRun(tools *cobra.Command) {
	params := newToolsRunParams()
	cmd := &cobra.Command{
		Use:   "run TOOL ARGS_JSON --tools DIR",
		Short: "Run one tool through check, execute and outcome",
		Long: `Run one tool of the registry in --tools DIR the way an agent's call runs:

  check    the arguments against the tool's contract (as judge call check);
           an invalid call is never executed
  execute  the tool with the normalized arguments: a script through its
           runtime as a process group, an api tool over HTTP, an mcp_tool
           through its MCP server (see docs/executors.md)
  outcome  the result classified (as judge call outcome)

and print all three. ARGS_JSON is the arguments as JSON; "-" reads them from
stdin and @FILE from a file.

HTTP requests to loopback, link-local and private addresses are refused
unless --allow-loopback or --allow-private says otherwise. A child process
gets PATH, HOME, LANG and a few more of judge's environment, plus only the
variables its manifests declare in config.env.

Exit status: 0 the call was valid and ran without failing, 1 the call was
rejected by the check or the tool failed (non-zero exit, HTTP status of 400
or more, MCP isError, timeout, refused address), 2 bad input (unreadable
manifests, arguments that are not JSON, a bad flag).`,
		Example: `  judge tools run email_enricher '{"email": "ada@example.com"}' --tools examples/tools
  judge tools run weather_forecast @args.json --tools .ai/tools --format text`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stdin = cmd.InOrStdin()
			params.stderr = cmd.ErrOrStderr()
			params.config = configFlagValue(cmd)
			return runToolsRun(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&params.tools, "tools", nil, "directory of tool manifests (repeatable; default "+manifest.DefaultDir+")")
	f.StringVar(&params.session, "session", "", "session id: count repair attempts and record the outcome (kept for this process, or in Redis with JUDGE_REDIS_URL)")
	f.DurationVar(&params.timeout, "timeout", 30*time.Second, "a call's timeout when its manifest gives none")
	f.BoolVar(&params.allowLoopback, "allow-loopback", false, "let HTTP requests reach loopback addresses (127.0.0.0/8, ::1)")
	f.BoolVar(&params.allowPrivate, "allow-private", false, "let HTTP requests reach private and link-local addresses")
	f.Var(params.format, "format", "output format: json or text (default text on a terminal, json otherwise)")
	tools.AddCommand(cmd)
}

// toolRun is the answer of judge tools run: the check, the execution (nil
// when the check rejected the call) and the outcome.
type toolRun struct {
	Check     *toolcall.CheckResult `json:"check"`
	Execution *toolExecution        `json:"execution,omitempty"`
	Outcome   *toolcall.Outcome     `json:"outcome,omitempty"`
}

// toolExecution is what running the tool gave.
type toolExecution struct {
	// Error is why the call could not be made (a timeout, a refused
	// address, a process that could not start); the rest is then empty.
	Error      string  `json:"error,omitempty"`
	Value      any     `json:"value,omitempty"`
	Text       string  `json:"text"`
	IsError    bool    `json:"is_error"`
	ExitCode   *int    `json:"exit_code,omitempty"`
	Stderr     string  `json:"stderr,omitempty"`
	Status     int     `json:"status,omitempty"`
	Attempts   int     `json:"attempts,omitempty"`
	Truncated  bool    `json:"truncated,omitempty"`
	DurationMS float64 `json:"duration_ms"`
}

// runToolsRun checks, runs and classifies the call of args[0] with the
// arguments args[1], and writes the three answers to out.
func runToolsRun(ctx context.Context, params toolsRunParams, args []string, out io.Writer) error {
	if len(params.tools) == 0 {
		params.tools = []string{manifest.DefaultDir}
	}
	if params.timeout <= 0 {
		return badInputf("--timeout %s is not positive", params.timeout)
	}
	conv, err := configRegistry(params.config, params.getenv, params.stderr)
	if err != nil {
		return err
	}
	ts, store, err := openToolset(ctx, callParams{tools: params.tools, getenv: params.getenv, registry: conv})
	if err != nil {
		return err
	}
	defer store.close()
	raw, err := readArgument(args[1], "arguments", params.stdin)
	if err != nil {
		return err
	}
	tool := args[0]
	call := toolcall.Call{Tool: tool, Arguments: raw, SessionID: params.session}
	check, err := ts.Check(ctx, call)
	if err != nil {
		return callInputError(err)
	}
	answer := &toolRun{Check: check}
	if !check.Result.Valid {
		return writeToolRun(out, params.format, answer, &exitError{code: exitInvalid})
	}
	reg, err := manifest.LoadDirsWith(ctx, conv, params.tools...)
	if err != nil {
		return badInput(err)
	}
	r, err := executor.New(ctx, reg, executor.WithAllowLoopback(params.allowLoopback), executor.WithAllowPrivate(params.allowPrivate),
		executor.WithLimits(executor.Limits{Timeout: params.timeout}))
	if err != nil {
		return err
	}
	defer r.Close()
	norm, err := json.Marshal(check.Arguments())
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := r.Call(ctx, tool, norm)
	exec := &toolExecution{}
	var mcpRes *mcp.CallToolResult
	switch {
	case errors.Is(err, executor.ErrUnknownTool):
		exec.Error = notRunnable(r, tool)
	case err != nil:
		if ctx.Err() != nil {
			return fmt.Errorf("tools run: %w", ctx.Err())
		}
		exec.Error = err.Error()
	default:
		exec.Value, exec.Text, exec.IsError = res.Value, res.Text, res.IsError
		exec.Stderr, exec.Status, exec.Attempts, exec.Truncated = res.Stderr, res.Status, res.Attempts, res.Truncated
		if res.Status == 0 && res.Attempts == 0 && (res.ExitCode != 0 || res.Stderr != "" || isScript(reg, tool)) {
			code := res.ExitCode
			exec.ExitCode = &code
		}
		mcpRes = res.MCPResult()
	}
	exec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	answer.Execution = exec
	if mcpRes == nil {
		mcpRes = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: exec.Error}}}
	}
	resJSON, err := json.Marshal(mcpRes)
	if err != nil {
		return err
	}
	o, err := ts.Outcome(ctx, toolcall.OutcomeRequest{Call: toolcall.Call{Tool: tool, Arguments: norm, SessionID: params.session}, Result: resJSON})
	if err != nil {
		return callInputError(err)
	}
	answer.Outcome = o
	var status error
	if exec.Error != "" || exec.IsError {
		status = &exitError{code: exitInvalid}
	}
	return writeToolRun(out, params.format, answer, status)
}

// notRunnable says why a tool the check knows cannot run.
func notRunnable(r *executor.Runner, tool string) string {
	for _, s := range r.Skipped() {
		if s.Tool == tool {
			return fmt.Sprintf("tool %s cannot run: %s", tool, s.Reason)
		}
	}
	return fmt.Sprintf("tool %s cannot run: only scripts, api tools, mcp_tool tools and the tools of MCP servers run", tool)
}

func isScript(reg *manifest.Registry, id string) bool {
	t, ok := reg.Lookup(id)
	return ok && t.Type == manifest.Script
}

// writeToolRun writes the answer and returns status.
func writeToolRun(out io.Writer, f *enumFlag, answer *toolRun, status error) error {
	if err := writeAnswer(out, f, answer, writeToolRunText); err != nil {
		return fmt.Errorf("writing the answer: %w", err)
	}
	return status
}

// writeToolRunText writes the three stages as text.
func writeToolRunText(out io.Writer, a *toolRun) error {
	if _, err := io.WriteString(out, "Check\n"); err != nil {
		return err
	}
	if err := writeCheckText(out, a.Check); err != nil {
		return err
	}
	if a.Execution == nil {
		_, err := io.WriteString(out, "\nNot executed: the call is invalid.\n")
		return err
	}
	e := a.Execution
	var sb strings.Builder
	sb.WriteString("\nExecution\n")
	switch {
	case e.Error != "":
		fmt.Fprintf(&sb, "  could not run: %s\n", e.Error)
	default:
		state := "ok"
		if e.IsError {
			state = "failed"
		}
		fmt.Fprintf(&sb, "  %s in %.1f ms", state, e.DurationMS)
		if e.ExitCode != nil {
			fmt.Fprintf(&sb, ", exit %d", *e.ExitCode)
		}
		if e.Status != 0 {
			fmt.Fprintf(&sb, ", HTTP %d after %d request(s)", e.Status, e.Attempts)
		}
		sb.WriteString("\n")
		if t := strings.TrimRight(e.Text, "\n"); t != "" {
			fmt.Fprintf(&sb, "  %s\n", strings.ReplaceAll(result.Clip(t, 2000), "\n", "\n  "))
		}
		if s := strings.TrimRight(e.Stderr, "\n"); s != "" && e.IsError {
			fmt.Fprintf(&sb, "  stderr: %s\n", strings.ReplaceAll(result.Clip(s, 1000), "\n", "\n  "))
		}
	}
	sb.WriteString("\nOutcome\n")
	if _, err := io.WriteString(out, sb.String()); err != nil {
		return err
	}
	return writeOutcomeText(out, a.Outcome)
}
