package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// callParams are the flags of judge call check and judge call outcome.
type callParams struct {
	tools   []string            // --tools: directories of tool manifests
	defs    string              // --defs: tool definitions file
	session string              // --session: session id
	goal    string              // --goal: the user's goal
	shown   []string            // --shown: the tools the model was shown
	budget  int                 // --budget: compaction budget in characters (outcome)
	format  *enumFlag           // --format: json | text; "" = by terminal
	stdin   io.Reader           // where "-" reads from
	getenv  func(string) string // reads JUDGE_REDIS_URL
	config  string              // --config: the config file; "" = JUDGE_CONFIG or the default
	stderr  io.Writer           // where the config file's warnings go
	// registry are the declarations of the config file's registry
	// section, for the manifests of tools (judge serve reads them).
	registry manifest.Conventions
	// spanDefs are tool definitions an input recorded itself (judge
	// trace: the tools an OpenTelemetry trace's model calls were
	// offered), used when neither --tools nor --defs is given.
	spanDefs []byte
}

func newCallParams() callParams {
	return callParams{format: newEnumFlag("", formatJSON, formatText), stdin: os.Stdin, stderr: os.Stderr, getenv: os.Getenv}
}

func initCall(root *cobra.Command) {
	cmd := &cobra.Command{
		Use:   "call",
		Short: "Check tool calls before and after they run",
		Long: `Check the tool calls of an LLM agent against the tools' contracts.

The contracts come from the tool manifests of --tools DIR (scripts, APIs, MCP
tools and directives, by tool_id) and from --defs FILE: an MCP tool
definition, an OpenAI function definition, a list of them, or a tools/list
answer. Each may carry CEL rules on its arguments. See docs/toolcall.md.`,
	}
	initCallCheck(cmd)
	initCallOutcome(cmd)
	root.AddCommand(cmd)
}

func initCallCheck(parent *cobra.Command) {
	params := newCallParams()
	cmd := &cobra.Command{
		Use:   "check (--tools DIR | --defs FILE) TOOL ARGS_JSON",
		Short: "Check a tool call's arguments before it runs",
		Long: `Check a tool call's arguments against the tool's contract before it runs,
and print {result, normalized_arguments, repair}: the ValidationResult, the
arguments to execute (defaults filled, parameters of other actions dropped,
safe coercions made), and, for an invalid call, the repair feedback for the
model.

ARGS_JSON is the arguments as JSON; "-" reads them from stdin and @FILE from
a file.

With --goal asking for everything (all, every, entire, everyone), limit-like
parameters (limit, per_page, page_size, max_results, top_k, count, …) are
raised to their schema's maximum, or dropped when it has none; each change is
an info issue.

With --session, invalid calls count as repair attempts of the session (per
mistake: the error's location and rule), and a call the session refuses (the
same call made again and again without progress, see judge call outcome) is
answered with "refused" and exit 1, even with valid arguments. The
session lives for this process, or in Redis when JUDGE_REDIS_URL
(redis://host:port/db, or redis+cluster://host:port?addr=host:port for a
Redis Cluster) is set, shared by every run and replica using it.

Exit status: 0 valid, 1 invalid or refused, 2 bad input (unreadable or malformed
definitions, arguments that are not JSON, a bad flag, a malformed
JUDGE_REDIS_URL) or an unreachable Redis.`,
		Example: `  judge call check --defs examples/call-tools.json get_events '{"action": "by_ids", "ids": ["e1"], "limit": 5}'
  judge call check --defs tools-list.json --session s1 create_issue @args.json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stdin = cmd.InOrStdin()
			params.stderr = cmd.ErrOrStderr()
			params.config = configFlagValue(cmd)
			return runCallCheck(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.defs, "defs", "", "file of tool definitions: JSON (MCP tools, OpenAI functions, a tools/list answer, manifests as JSON) or one YAML tool manifest")
	f.StringArrayVar(&params.tools, "tools", nil, "directory of tool manifests (repeatable); their scripts, APIs, MCP tools and directives are the tools")
	f.StringVar(&params.session, "session", "", "session id: count repair attempts (kept for this process, or in Redis with JUDGE_REDIS_URL)")
	f.StringVar(&params.goal, "goal", "", "the user's goal: one asking for everything (all, every, entire, everyone) raises limit-like parameters to their maximum, or drops them")
	f.StringSliceVar(&params.shown, "shown", nil, "the tools the model was shown (comma-separated), kept in the session so that an escalate verdict names the wider set")
	f.Var(params.format, "format", "output format: json or text (default text on a terminal, json otherwise)")
	parent.AddCommand(cmd)
}

// loadToolset reads the tool manifests of --tools and the definitions file
// of --defs and compiles their contracts.
func loadToolset(ctx context.Context, c *toolcall.Checker, params callParams) (*toolcall.Toolset, error) {
	if params.defs == "" && len(params.tools) == 0 && params.spanDefs == nil {
		return nil, badInputf("no tool definitions: give --tools DIR or --defs FILE (see 'judge call check --help')")
	}
	var defs []toolcall.Definition
	if params.defs == "" && len(params.tools) == 0 {
		d, err := toolcall.ParseDefinitions(params.spanDefs, "the trace's tool definitions")
		if err != nil {
			return nil, badInput(err)
		}
		ts, err := c.NewToolset(d...)
		if err != nil {
			return nil, badInput(err)
		}
		return ts, nil
	}
	if len(params.tools) > 0 {
		reg, err := manifest.LoadDirsWith(ctx, params.registry, params.tools...)
		if err != nil {
			return nil, badInput(err)
		}
		if defs, err = toolcall.RegistryDefinitions(reg); err != nil {
			return nil, badInput(err)
		}
	}
	var err error
	if params.defs != "" {
		var data []byte
		if ext := strings.ToLower(filepath.Ext(params.defs)); ext == ".yaml" || ext == ".yml" {
			// One tool manifest, read as the manifest loader reads a
			// NAME.yaml file.
			if data, err = readFile(params.defs, "definitions", toolcall.MaxDefsBytes); err != nil {
				return nil, err
			}
			if data, err = json.Marshal([]map[string]string{{"path": filepath.Base(params.defs), "content": string(data)}}); err != nil {
				return nil, err
			}
		} else if data, err = readJSONFile(params.defs, "definitions", toolcall.MaxDefsBytes); err != nil {
			return nil, err
		}
		var more []toolcall.Definition
		if more, err = toolcall.ParseDefinitions(data, params.defs); err == nil {
			defs = append(defs, more...)
		}
	}
	if err == nil {
		var ts *toolcall.Toolset
		if ts, err = c.NewToolset(defs...); err == nil {
			return ts, nil
		}
	}
	var de *toolcall.DefinitionError
	if errors.As(err, &de) {
		return nil, badInput(de)
	}
	return nil, err
}

// readArgument reads a JSON argument: literal text, "-" for stdin, @FILE.
func readArgument(arg, what string, stdin io.Reader) (json.RawMessage, error) {
	var data []byte
	switch {
	case arg == "-":
		if stdin == nil {
			return nil, badInputf("no %s: stdin is closed", what)
		}
		var err error
		if data, err = readLimited(stdin, "<stdin>", what, maxInputBytes); err != nil {
			return nil, err
		}
	case strings.HasPrefix(arg, "@"):
		var err error
		if data, err = readFile(arg[1:], what, maxInputBytes); err != nil {
			return nil, err
		}
	default:
		data = []byte(arg)
	}
	return json.RawMessage(bytes.TrimPrefix(data, utf8BOM)), nil
}

// runCallCheck checks the call of args[0] with the arguments args[1] and
// writes the answer to out.
func runCallCheck(ctx context.Context, params callParams, args []string, out io.Writer) error {
	if err := params.readRegistry(); err != nil {
		return err
	}
	ts, store, err := openToolset(ctx, params)
	if err != nil {
		return err
	}
	defer store.close()
	raw, err := readArgument(args[1], "arguments", params.stdin)
	if err != nil {
		return err
	}
	res, err := ts.Check(ctx, toolcall.Call{Tool: args[0], Arguments: raw, SessionID: params.session, Goal: params.goal, ShownTools: params.shown})
	if err != nil {
		return callInputError(err)
	}
	if err := writeAnswer(out, params.format, res, writeCheckText); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	if !res.Result.Valid || res.Refused != "" {
		return &exitError{code: exitInvalid}
	}
	return nil
}

// readRegistry reads the registry declarations of the config file into
// params when --tools names manifest directories.
func (params *callParams) readRegistry() error {
	if len(params.tools) == 0 {
		return nil
	}
	conv, err := configRegistry(params.config, params.getenv, params.stderr)
	params.registry = conv
	return err
}

// openToolset opens the session store of JUDGE_REDIS_URL (or one kept for
// this process), builds a checker keeping its sessions there, with opts
// added, and loads the toolset of --tools and --defs. On success the caller
// closes the store when done; on failure it is already closed.
func openToolset(ctx context.Context, params callParams, opts ...toolcall.Option) (*toolcall.Toolset, sessions, error) {
	store, err := sessionStore(params.getenv)
	if err != nil {
		return nil, sessions{}, err
	}
	c, err := toolcall.New(append(store.options(), opts...)...)
	if err == nil {
		var ts *toolcall.Toolset
		if ts, err = loadToolset(ctx, c, params); err == nil {
			return ts, store, nil
		}
	}
	store.close()
	return nil, sessions{}, err
}

// callInputError makes a *toolcall.CallError (arguments or a result that
// cannot be checked at all) bad input, exit status 2; other errors are
// returned as they are.
func callInputError(err error) error {
	var ce *toolcall.CallError
	if errors.As(err, &ce) {
		return badInput(err)
	}
	return err
}

// writeAnswer writes v to out as text with writeText when the chosen
// format (see chosenFormat) is text, else as indented JSON.
func writeAnswer[T any](out io.Writer, f *enumFlag, v T, writeText func(io.Writer, T) error) error {
	if chosenFormat(f, out) == formatText {
		return writeText(out, v)
	}
	return writeIndented(out, v)
}

// chosenFormat is the --format value, or text on a terminal and JSON
// otherwise.
func chosenFormat(f *enumFlag, out io.Writer) string {
	if f.value != "" {
		return f.value
	}
	if isTerminal(out) {
		return formatText
	}
	return formatJSON
}

// writeIndented writes v as indented JSON.
func writeIndented(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeCheckText writes a check's result as text, then the normalized
// arguments and the repair fixes.
func writeCheckText(out io.Writer, res *toolcall.CheckResult) error {
	if err := result.WriteText(out, withFlagHints(res.Result)); err != nil {
		return err
	}
	norm, err := json.Marshal(res.Arguments())
	if err != nil {
		return err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nNormalized arguments: %s\n", norm)
	if res.Refused != "" {
		fmt.Fprintf(&sb, "\nRefused by the session: %s\n", res.Refused)
	}
	if r := res.Repair; r != nil {
		fmt.Fprintf(&sb, "\nRepair %s", r.Tool)
		if r.Intent != "" {
			fmt.Fprintf(&sb, " (%s)", r.Intent)
		}
		sb.WriteString("\n")
		if r.WhenToUse != "" || r.WhenNotToUse != "" {
			fmt.Fprintf(&sb, "  %s\n", strings.ReplaceAll(manifest.GuidedDescription("", manifest.Guidance{WhenToUse: r.WhenToUse, WhenNotToUse: r.WhenNotToUse}), "\n", "\n  "))
		}
		for _, f := range r.Fixes {
			fmt.Fprintf(&sb, "  - %s: %s\n", f.Location, f.Suggestion)
			if g := manifest.ParamGuidanceText(f.Intent, f.AntiPatterns); g != "" {
				fmt.Fprintf(&sb, "    %s\n", g)
			}
		}
		if r.RemainingAttempts != nil {
			fmt.Fprintf(&sb, "  attempt %d of %d, %d remaining\n", r.Attempt, r.MaxAttempts, *r.RemainingAttempts)
		}
	}
	_, err = io.WriteString(out, sb.String())
	return err
}

func initCallOutcome(parent *cobra.Command) {
	params := newCallParams()
	cmd := &cobra.Command{
		Use:   "outcome (--tools DIR | --defs FILE) TOOL ARGS_JSON RESULT_JSON",
		Short: "Classify a tool call's result after it ran",
		Long: `Classify a tool call's result after it ran and print {status, reason, result,
extracted_facts, suggested_next_tools, progress, compacted}.

The status is SATISFIED, NEEDS_MORE_TOOLS (an empty result, or candidates to
act on), NEED_USER_INPUT (the tool asks the user to clarify) or FAILED (an
explicit failure: MCP isError, an error field, success false, a non-zero exit
code, an HTTP status of 400 or more; or a structuredContent that breaks the
tool's output schema). A result over --budget characters is also given
compacted; validation and error fields are never compacted.

With --goal, a result that would be SATISFIED is checked against the
user's goal: deterministically first (the ids, entities and fields the goal
asks about present in the result; for the latest or current state, the
newest relevant item of a list), then by the model of the config file's llm
section or of JUDGE_LLM_BASE_URL and JUDGE_LLM_MODEL, if any. A result that does not answer the goal is
NEEDS_MORE_TOOLS; an undecided goal is an info not_checked issue.

ARGS_JSON and RESULT_JSON are JSON; "-" reads one of them from stdin and
@FILE from a file.

With --session, the outcome is recorded in the session and a progress
verdict given. The session lives for this process, or in Redis when
JUDGE_REDIS_URL (redis://host:port/db, or
redis+cluster://host:port?addr=host:port for a Redis Cluster) is set,
shared by every run and replica using it.

Exit status: 0 when classified, whatever the status; 2 bad input (a
malformed JUDGE_REDIS_URL too) or an unreachable Redis.`,
		Example: `  judge call outcome --defs examples/call-tools.json get_events '{"action": "by_ids", "ids": ["e1"]}' @result.json
  mcp-call get_issue | judge call outcome --defs tools.json get_issue '{"issue_number": 7}' -`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stdin = cmd.InOrStdin()
			params.stderr = cmd.ErrOrStderr()
			params.config = configFlagValue(cmd)
			return runCallOutcome(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.defs, "defs", "", "file of tool definitions: JSON (MCP tools, OpenAI functions, a tools/list answer, manifests as JSON) or one YAML tool manifest")
	f.StringArrayVar(&params.tools, "tools", nil, "directory of tool manifests (repeatable); their scripts, APIs, MCP tools and directives are the tools")
	f.StringVar(&params.session, "session", "", "session id: record the outcome and give a progress verdict (kept for this process, or in Redis with JUDGE_REDIS_URL)")
	f.StringVar(&params.goal, "goal", "", "the user's goal: a result that holds none of the ids and fields it asks for needs more tools; undecided goals go to the model of the config file or JUDGE_LLM_*, else are reported as not checked")
	f.IntVar(&params.budget, "budget", toolcall.DefaultCompactBudget, "character budget of the compacted result")
	f.StringSliceVar(&params.shown, "shown", nil, "the tools the model was shown (comma-separated), kept in the session so that an escalate verdict names the wider set")
	f.Var(params.format, "format", "output format: json or text (default text on a terminal, json otherwise)")
	parent.AddCommand(cmd)
}

// runCallOutcome classifies the result args[2] of the call of args[0] with
// the arguments args[1] and writes the outcome to out.
func runCallOutcome(ctx context.Context, params callParams, args []string, out io.Writer) error {
	if args[1] == "-" && args[2] == "-" {
		return badInputf("only one of ARGS_JSON and RESULT_JSON can be read from stdin")
	}
	if params.budget <= 0 {
		return badInputf("--budget %d is not positive", params.budget)
	}
	if err := params.readRegistry(); err != nil {
		return err
	}
	opts := []toolcall.Option{toolcall.WithCompactBudget(params.budget)}
	if params.goal != "" {
		cfg, err := loadConfig(params.config, params.getenv, nil)
		if err != nil {
			return err
		}
		model, err := callModelOptions(cfg, params.getenv)
		if err != nil {
			return err
		}
		opts = append(opts, model...)
	}
	ts, store, err := openToolset(ctx, params, opts...)
	if err != nil {
		return err
	}
	defer store.close()
	rawArgs, err := readArgument(args[1], "arguments", params.stdin)
	if err != nil {
		return err
	}
	rawRes, err := readArgument(args[2], "result", params.stdin)
	if err != nil {
		return err
	}
	o, err := ts.Outcome(ctx, toolcall.OutcomeRequest{
		Call:   toolcall.Call{Tool: args[0], Arguments: rawArgs, SessionID: params.session, ShownTools: params.shown},
		Result: rawRes, Goal: params.goal,
	})
	if err != nil {
		return callInputError(err)
	}
	if err := writeAnswer(out, params.format, o, writeOutcomeText); err != nil {
		return fmt.Errorf("writing the outcome: %w", err)
	}
	return nil
}

// writeOutcomeText writes an outcome as text: status and reason, the
// result, the facts and the next tools.
func writeOutcomeText(out io.Writer, o *toolcall.Outcome) error {
	if _, err := fmt.Fprintf(out, "%s: %s\n\n", o.Status, o.Reason); err != nil {
		return err
	}
	if err := result.WriteText(out, withFlagHints(o.Result)); err != nil {
		return err
	}
	var sb strings.Builder
	if len(o.ExtractedFacts) > 0 {
		sb.WriteString("\nFacts:\n")
		for _, f := range o.ExtractedFacts {
			v, _ := json.Marshal(f.Value)
			fmt.Fprintf(&sb, "  %s = %s\n", f.Path, v)
		}
	}
	if g := o.Goal; g != nil {
		fmt.Fprintf(&sb, "\nGoal: %s", g.Verdict)
		if g.By != "" {
			fmt.Fprintf(&sb, " (%s)", g.By)
		}
		fmt.Fprintf(&sb, ": %s\n", g.Reason)
		if g.Evidence != "" {
			fmt.Fprintf(&sb, "  evidence: %s\n", g.Evidence)
		}
	}
	if len(o.SuggestedNextTools) > 0 {
		sb.WriteString("\nNext tools:\n")
		for _, n := range o.SuggestedNextTools {
			a, _ := json.Marshal(n.Arguments)
			fmt.Fprintf(&sb, "  %s (%s) %s\n", n.Tool, n.Reason, a)
		}
	}
	if o.Progress != nil {
		fmt.Fprintf(&sb, "\nProgress: %s", o.Progress.Verdict)
		if o.Progress.Reason != "" {
			fmt.Fprintf(&sb, " (%s)", o.Progress.Reason)
		}
		sb.WriteString("\n")
		if len(o.Progress.Show) > 0 {
			fmt.Fprintf(&sb, "  show: %s\n", strings.Join(o.Progress.Show, ", "))
		}
	}
	_, err := io.WriteString(out, sb.String())
	return err
}

// serveTools compiles the tools judge serve answers /v1/calls/* with when
// a request gives none: those of --tools and --defs, or none. The checker
// keeps sessions where opts say.
func serveTools(ctx context.Context, params serveParams, registry manifest.Conventions, opts ...toolcall.Option) (*toolcall.Checker, *toolcall.Toolset, error) {
	c, err := toolcall.New(opts...)
	if err != nil {
		return nil, nil, err
	}
	if len(params.tools) == 0 && params.defs == "" {
		return c, nil, nil
	}
	ts, err := loadToolset(ctx, c, callParams{tools: params.tools, defs: params.defs, registry: registry})
	if err != nil {
		return nil, nil, err
	}
	return c, ts, nil
}
