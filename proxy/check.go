package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// A Checkpoint is where judge looks at the documents of an answer as they
// arrive: the content of each choice, against the request's response
// schema, and the arguments of each tool call, against its tool's
// contract. The proxy makes one per request (see [Options.Checkpoint]).
//
// This is the seam of the streaming validator: a Watch may report a
// violation from Feed, as soon as it is certain that no continuation of
// the fragments so far can make the document valid, and the proxy acts on
// it then (annotate records it, stop cuts the upstream), before the
// document ends. [WholeDocuments] reports a content's violations so, through
// judge.Engine.Stream; a tool call's arguments are checked at their end,
// since the tool-call pipeline's normalization may repair what the schema
// alone would refuse.
type Checkpoint interface {
	// Content begins the content of one choice; nil when the request asks
	// for no structured output (nothing to check).
	Content(ctx context.Context) Watch
	// Arguments begins the arguments of one tool call of the named tool;
	// nil when the request gives no tools.
	Arguments(ctx context.Context, tool string) Watch
}

// A Watch follows one document as its fragments arrive. It is used by one
// goroutine.
type Watch interface {
	// Feed takes the next fragment of the document. It returns a verdict,
	// not nil, once the document is certain to be invalid whatever
	// follows; after that the proxy feeds it no more.
	Feed(fragment []byte) *Verdict
	// End ends the document and returns the verdict on it whole. An error
	// is a check that could not run (the context done), not a finding.
	End(ctx context.Context) (*Verdict, error)
}

// Verdict is judge's finding on one document of an answer.
type Verdict struct {
	// Choice is the index of the choice the document belongs to.
	Choice int `json:"choice"`
	// Kind is "content" or "tool_call".
	Kind string `json:"kind"`
	// ToolCall names the tool call, for a tool call's arguments.
	ToolCall *ToolCallRef `json:"tool_call,omitempty"`
	// At is how many bytes of the document had been read when the verdict
	// was certain (the whole document for a verdict of End).
	At int `json:"at"`
	// Early is true when the verdict came before the document ended.
	Early bool `json:"early,omitempty"`
	// Result is the ValidationResult.
	Result *result.ValidationResult `json:"result"`
	// NormalizedArguments are a tool call's arguments as they should run
	// (defaults filled, safe coercions made), when they could be read.
	NormalizedArguments any `json:"normalized_arguments,omitempty"`
	// Repair is the tool-call pipeline's repair block, for invalid
	// arguments.
	Repair *toolcall.Repair `json:"repair,omitempty"`
	// RepairText is what the model should read to fix the document; ""
	// when it is valid.
	RepairText string `json:"repair_text,omitempty"`
}

// ToolCallRef names one tool call of a choice.
type ToolCallRef struct {
	// Index is the call's index among the choice's tool calls.
	Index int `json:"index"`
	// ID is the call's id as the upstream gave it.
	ID string `json:"id,omitempty"`
	// Name is the tool's name.
	Name string `json:"name"`
}

// Contracts are what a request asks its answer to satisfy: the response
// schema of response_format and the contracts of its tools.
type Contracts struct {
	// Schema is the response schema (json_schema.schema, or an object for
	// json_object); nil when the request asks for no structured output.
	Schema json.RawMessage
	// Tools checks the calls of the request's tools; nil when it gives
	// none.
	Tools *toolcall.Toolset
}

// WholeDocuments returns the checkpoint that checks each document whole,
// once it has ended: the content with engine's schema layer, each tool
// call's arguments with the tool-call pipeline's pre-execution check
// (contracts, normalization, repair). A content's watch also reports from
// Feed a violation of the schema as soon as it is certain (malformed JSON
// at its byte included), with judge.Engine.Stream (docs/streaming.md);
// argument watches report only at their end.
func WholeDocuments(engine *judge.Engine, c Contracts) Checkpoint {
	return &wholeDocuments{engine: engine, c: c}
}

type wholeDocuments struct {
	engine *judge.Engine
	c      Contracts
}

func (w *wholeDocuments) Content(context.Context) Watch {
	if w.c.Schema == nil {
		return nil
	}
	st := w.engine.Stream(&judge.Request{ExpectedSchema: w.c.Schema,
		ValidationTypes: []string{"schema"}, Options: judge.Options{OutputMode: judge.OutputValue}})
	return &contentWatch{engine: w.engine, schema: w.c.Schema, st: st}
}

func (w *wholeDocuments) Arguments(_ context.Context, tool string) Watch {
	if w.c.Tools == nil {
		return nil
	}
	return &argumentsWatch{tools: w.c.Tools, tool: tool}
}

// contentWatch gathers a choice's content, streams it through the
// streaming validator for early verdicts, and validates it whole at its
// end.
type contentWatch struct {
	engine *judge.Engine
	schema json.RawMessage
	buf    []byte
	st     *judge.Stream // nil once it has given a verdict
}

func (c *contentWatch) Feed(fragment []byte) *Verdict {
	c.buf = append(c.buf, fragment...)
	if c.st == nil {
		return nil
	}
	evs, err := c.st.Write(fragment)
	if se := (*jsonvalue.SyntaxError)(nil); errors.As(err, &se) {
		c.st = nil
		return syntaxVerdict(se.Line, se.Col, se.Msg)
	}
	for _, ev := range evs {
		if !ev.Result.Valid {
			c.st = nil
			return &Verdict{Kind: "content", At: int(ev.At), Result: ev.Result, RepairText: contentRepairText(ev.Result)}
		}
	}
	return nil
}

func (c *contentWatch) End(ctx context.Context) (*Verdict, error) {
	return checkContent(ctx, c.engine, c.schema, c.buf)
}

// checkContent validates content, the whole content of a choice, against
// schema: content that is not JSON is a syntax_error at its line and
// column; JSON is validated by the engine's schema layer, as judge
// validate does.
func checkContent(ctx context.Context, engine *judge.Engine, schema json.RawMessage, content []byte) (*Verdict, error) {
	v := &Verdict{Kind: "content", At: len(content)}
	if _, err := jsonvalue.Decode(content, 0); err != nil {
		line, col, msg := 0, 0, err.Error()
		var se *jsonvalue.SyntaxError
		if errors.As(err, &se) {
			line, col, msg = se.Line, se.Col, se.Msg
		}
		if len(strings.TrimSpace(string(content))) == 0 {
			msg = "it is empty"
		}
		sv := syntaxVerdict(line, col, msg)
		sv.At = len(content)
		return sv, nil
	}
	res, err := engine.Validate(ctx, &judge.Request{Output: content, ExpectedSchema: schema,
		ValidationTypes: []string{"schema"}, Options: judge.Options{OutputMode: judge.OutputValue}})
	if err != nil {
		return nil, fmt.Errorf("proxy: checking the content: %w", err)
	}
	v.Result = res
	v.RepairText = contentRepairText(res)
	return v, nil
}

// syntaxVerdict is the verdict on content that is not JSON: a
// syntax_error at line and column (at root when line is 0).
func syntaxVerdict(line, col int, msg string) *Verdict {
	loc := "root"
	if line > 0 {
		loc = fmt.Sprintf("line:%d:column:%d", line, col)
	}
	is := result.Issue{Severity: result.Error, Type: result.SyntaxError, Location: loc, Rule: "proxy.content_json",
		Message:    "The answer is not the JSON document the response format asks for: " + msg,
		Suggestion: "Answer with one JSON value matching the response schema, with nothing before or after it"}
	v := &Verdict{Kind: "content", Result: result.NewBuilder().Ran("schema").Add(is).Build()}
	v.RepairText = contentRepairText(v.Result)
	return v
}

// contentRepairText is what the model reads of an invalid answer to a
// response schema: each error at its location with its suggestion.
func contentRepairText(r *result.ValidationResult) string {
	if r.Valid {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("judge refused the answer: it does not match the response schema.\n")
	for _, is := range r.Issues {
		if is.Severity != result.Error {
			continue
		}
		sb.WriteString(is.RepairLine())
		sb.WriteByte('\n')
	}
	sb.WriteString("Answer again with JSON that matches the response schema.")
	return sb.String()
}

// argumentsWatch gathers a tool call's arguments and checks them whole.
type argumentsWatch struct {
	tools *toolcall.Toolset
	tool  string
	buf   []byte
}

func (a *argumentsWatch) Feed(fragment []byte) *Verdict {
	a.buf = append(a.buf, fragment...)
	return nil
}

func (a *argumentsWatch) End(ctx context.Context) (*Verdict, error) {
	return checkArguments(ctx, a.tools, a.tool, a.buf)
}

// checkArguments runs the pre-execution check of the call of tool with
// args: arguments that cannot be read are answered as the gateway answers
// them (toolcall.UnreadableCheck).
func checkArguments(ctx context.Context, tools *toolcall.Toolset, tool string, args []byte) (*Verdict, error) {
	v := &Verdict{Kind: "tool_call", At: len(args)}
	chk, err := tools.Check(ctx, toolcall.Call{Tool: tool, Arguments: args})
	if err != nil {
		var ce *toolcall.CallError
		if !errors.As(err, &ce) {
			return nil, fmt.Errorf("proxy: checking the arguments of %q: %w", tool, err)
		}
		chk = toolcall.UnreadableCheck(tool, ce)
	}
	v.Result, v.NormalizedArguments, v.Repair = chk.Result, chk.Arguments(), chk.Repair
	v.RepairText = toolcall.RepairText(tool, chk)
	return v, nil
}
