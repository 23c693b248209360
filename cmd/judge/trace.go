package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/console"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

// traceParams are the flags of judge trace.
type traceParams struct {
	callParams
	rules  string    // --rules: policy rules file
	html   string    // --html: file to write the HTML report to
	stderr io.Writer // where the progress bar goes (only on a terminal)
}

func initTrace(root *cobra.Command) {
	params := traceParams{callParams: newCallParams(), stderr: os.Stderr}
	cmd := &cobra.Command{
		Use:   "trace (--tools DIR | --defs FILE) [--rules FILE] FILE",
		Short: "Check recorded agent conversations call by call",
		Long: `Check recorded agent conversations: an OpenAI chat message list whose
assistant messages carry tool_calls and whose role "tool" messages carry the
results. FILE holds one conversation, a JSON array of them, or JSONL (one per
line); tau-bench's {task_id, trial, reward, traj} records are read too. "-"
reads stdin.

Every call is checked against its tool's contract before execution
(location messages[i].tool_calls[j]), every result is classified after it
(SATISFIED, NEEDS_MORE_TOOLS, NEED_USER_INPUT, FAILED; location messages[k]),
a session per conversation gives the progress verdicts (loops), and the CEL
policy rules of --rules are evaluated at every call (end rules once after the
last message). A rule naming a tool the toolset does not have is refused.
An empty result of a tool that returns nothing by design (its description
says so, or it returned the same empty result at every call of FILE) is
SATISFIED. A record whose run crashed (an error in its info, tau-bench's
{info: {error, traceback}} with no messages) is reported not_checked with
the error quoted, counted as crashed and left out of the AUROC. Each
conversation gets a risk score: the error rules it broke (each once) plus
its invalid calls and loops; it is no measure of success on a domain whose
rules were not written and tested on it. See docs/trace.md.

The answer is {conversations: [{id, reward?, result, calls, counts, risk,
rules?, run_error?}], summary}; the summary counts each rule's violations,
conversations and undecided evaluations (rules) and compares the risk of
failed tasks (reward below 1) with solved ones (auroc). --format text reads
like a code review. --html OUT also writes the
report as one self-contained HTML page to OUT (summary and charts, then every
conversation as a timeline with each call's check, outcome and findings,
filterable; it opens from disk and makes no request); see docs/console.md.
With many conversations and stderr on a terminal, a progress bar is drawn on
stderr.

Exit status: 0 no conversation flagged (no invalid call, loop or rule
violation) and none crashed, 1 some flagged or crashed (not checked, never
counted as passed), 2 bad input (a rule that does not compile or names an
unknown tool, malformed conversations).`,
		Example: `  judge trace --defs ../shared/testdata/agent-traces/tau-bench-airline-tools.json \
    --rules examples/traces/airline.rules.json ../shared/testdata/agent-traces/tau-bench-airline-gpt-4o.dev.json
  judge trace --defs tools.json --format text conversation.json
  judge trace --defs tools.json --rules rules.json --html report.html conversations.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stdin = cmd.InOrStdin()
			params.stderr = cmd.ErrOrStderr()
			return runTrace(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.defs, "defs", "", "file of tool definitions: JSON (MCP tools, OpenAI functions, a tools/list answer, manifests as JSON) or one YAML tool manifest")
	f.StringArrayVar(&params.tools, "tools", nil, "directory of tool manifests (repeatable)")
	f.StringVar(&params.rules, "rules", "", `policy rules file: {"rules": [{name, description, tools, when, expr, message}]} with CEL expressions`)
	f.Var(params.format, "format", "output format: json or text (default text on a terminal, json otherwise)")
	f.StringVar(&params.html, "html", "", "also write the report as one self-contained HTML page to this file")
	root.AddCommand(cmd)
}

// traceAnswer is judge trace's answer.
type traceAnswer struct {
	Conversations []*trace.Report `json:"conversations"`
	Summary       trace.Summary   `json:"summary"`
}

// runTrace checks the conversations of args[0] and writes the answer.
func runTrace(ctx context.Context, params traceParams, args []string, out io.Writer) error {
	var rules *trace.Rules
	if params.rules != "" {
		data, err := readJSONFile(params.rules, "rules", trace.MaxRulesBytes)
		if err != nil {
			return err
		}
		if rules, err = trace.ParseRules(data); err != nil {
			return badInput(fmt.Errorf("%s: %w", params.rules, err))
		}
	}
	ts, store, err := openToolset(ctx, params.callParams)
	if err != nil {
		return err
	}
	defer store.close()
	ch, err := trace.New(ts, rules)
	if err != nil {
		var re *trace.RuleError
		if errors.As(err, &re) {
			return badInput(fmt.Errorf("%s: %w", params.rules, err))
		}
		return err
	}
	var raw []byte
	if args[0] == "-" {
		raw, err = readLimited(params.stdin, "<stdin>", "conversations", trace.MaxTraceBytes)
	} else {
		raw, err = readFile(args[0], "conversations", trace.MaxTraceBytes)
	}
	if err != nil {
		return err
	}
	convs, err := trace.Decode(raw)
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", args[0], err))
	}
	if ch, err = ch.ForInput(ctx, convs); err != nil {
		return err
	}
	bar := newProgressBar(params.stderr, len(convs))
	reports := make([]*trace.Report, 0, len(convs))
	for _, c := range convs {
		r, err := ch.Check(ctx, c)
		if err != nil {
			bar.done()
			var ce *toolcall.CallError
			if errors.As(err, &ce) {
				return badInput(err)
			}
			return err
		}
		reports = append(reports, r)
		bar.step()
	}
	bar.done()
	ans := traceAnswer{Conversations: reports, Summary: ch.Summarize(reports)}
	if params.html != "" {
		page := console.Trace{Title: filepath.Base(args[0]), Conversations: convs, Reports: reports, Summary: ans.Summary, Rules: rules}
		if err := writeFileWith(params.html, func(w io.Writer) error { return console.WriteTrace(w, page) }); err != nil {
			return fmt.Errorf("writing the HTML report: %w", err)
		}
	}
	if err := writeAnswer(out, params.format, ans, writeTraceText); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	if ans.Summary.Flagged > 0 || ans.Summary.Crashed > 0 {
		return &exitError{code: exitInvalid}
	}
	return nil
}

// writeFileWith writes the file name with write, through a temporary file
// in its directory renamed over it, so that a failed write leaves no half
// file.
func writeFileWith(name string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// writeTraceText writes each report as a review, then the summary.
func writeTraceText(out io.Writer, ans traceAnswer) error {
	for i, r := range ans.Conversations {
		if i > 0 {
			if _, err := io.WriteString(out, "\n"); err != nil {
				return err
			}
		}
		if err := trace.WriteText(out, r); err != nil {
			return err
		}
	}
	if len(ans.Conversations) > 1 {
		if _, err := io.WriteString(out, "\n"); err != nil {
			return err
		}
		return trace.WriteSummaryText(out, ans.Summary)
	}
	return nil
}

// minBarConversations is the fewest conversations a progress bar is drawn
// for.
const minBarConversations = 20

// progressBar draws "checked n/N" on a terminal; it is silent elsewhere.
type progressBar struct {
	w        io.Writer // nil: silent
	n, total int
}

func newProgressBar(w io.Writer, total int) *progressBar {
	if total < minBarConversations || !isTerminal(w) {
		return &progressBar{}
	}
	return &progressBar{w: w, total: total}
}

func (b *progressBar) step() {
	b.n++
	if b.w == nil {
		return
	}
	const width = 30
	filled := width * b.n / b.total
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = '.'
		if i < filled {
			bar[i] = '#'
		}
	}
	fmt.Fprintf(b.w, "\r[%s] %d/%d conversations", bar, b.n, b.total)
}

func (b *progressBar) done() {
	if b.w != nil && b.n > 0 {
		fmt.Fprint(b.w, "\n")
	}
	b.w = nil
}
