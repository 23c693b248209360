package gateway

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/toolcall"
)

// Compaction is the note _meta.judge.compacted holds when a result was
// over Options.CompactBudget: the budget, and each part of the result
// whose JSON the model now reads compacted (how long it was and is, how
// many lists and texts were cut, the entities the call asked about that
// kept their key text), or why a result over the budget was left whole.
type Compaction struct {
	// Budget is the character budget (Options.CompactBudget).
	Budget int `json:"budget"`
	// Parts are the compacted parts, structuredContent first, then the
	// text contents holding JSON, in order.
	Parts []CompactedPart `json:"parts,omitempty"`
	// Skipped says why a result over the budget was left whole (its
	// content is not JSON, or the goal asks for every item); empty when
	// a part was cut.
	Skipped string `json:"skipped,omitempty"`
}

// CompactedPart is one part of a result the gateway compacted.
type CompactedPart struct {
	// At is the part: "structuredContent" or "content[i]" (the text of
	// the i-th content item).
	At string `json:"at"`
	// OriginalChars is the length in characters of the part's JSON as
	// the tool gave it (written compactly), Chars after the compaction.
	OriginalChars int `json:"original_chars"`
	Chars         int `json:"chars"`
	// Cut counts the lists and texts shortened.
	Cut int `json:"cut"`
	// Focus are the paths of the entities the call asked about (by an id
	// or a query argument), kept in their lists with their texts whole
	// up to 2000 characters (see toolcall.CompactFor).
	Focus []string `json:"focus,omitempty"`
	// OverBudget is true when even the tightest cut that keeps the
	// identifying fields and the entities in focus exceeds the budget.
	OverBudget bool `json:"over_budget,omitempty"`
}

// checkerCompaction is the checker option of the gateway's budget: the
// outcome's compaction (Outcome.Compacted) is measured against the same
// budget the gateway cuts to; with compaction off, the outcome does not
// compact at all, since nothing would read it.
func checkerCompaction(budget int) []toolcall.Option {
	if budget <= 0 {
		return []toolcall.Option{toolcall.WithoutCompaction()}
	}
	return []toolcall.Option{toolcall.WithCompactBudget(budget)}
}

// compact shapes raw, the answer (a CallToolResult's JSON) of the tool
// called name with the normalized arguments args, under the user's goal,
// whose outcome is oc, for the model: when the outcome found the payload
// over the budget, the JSON the model reads is replaced by its compaction
// (see [compactResult]) and the result encoded again. It returns the
// answer and the note for _meta.judge.compacted; raw and nil when
// compaction is off, when the result is within the budget (decided by the
// outcome, which already measured it: no decoding or encoding here) and
// for an error result, which is never cut.
func (g *Gateway) compact(ts *toolcall.Toolset, name, goal string, args, raw json.RawMessage, oc *toolcall.Outcome) (json.RawMessage, *Compaction) {
	if g.opts.CompactBudget <= 0 || oc == nil || oc.Compacted == nil {
		return raw, nil
	}
	out := &mcp.CallToolResult{}
	if err := json.Unmarshal(raw, out); err != nil || out.IsError {
		return raw, nil
	}
	if toolcall.WantsAll(goal) {
		return raw, &Compaction{Budget: g.opts.CompactBudget,
			Skipped: "the goal asks for every item, which a cut list would hide: the result is left whole"}
	}
	keepStructured := false
	if ct, ok := ts.Contract(name); ok {
		keepStructured = ct.HasOutputSchema()
	}
	note := compactResult(out, oc.Compacted, args, g.opts.CompactBudget, keepStructured)
	if len(note.Parts) == 0 {
		return raw, note
	}
	b, err := json.Marshal(out)
	if err != nil {
		return raw, &Compaction{Budget: g.opts.CompactBudget, Skipped: "the compacted result could not be encoded: it is left whole"}
	}
	return b, note
}

// compactResult shapes res, the result of a call with the arguments args
// (JSON), so that the JSON a model reads of it fits in budget characters;
// payload is the outcome's compaction of the result's payload (the
// structuredContent when there is one, else the content), reused where it
// is the part to cut. What is cut, by its fields (toolcall.CompactFor:
// long lists keep their first items and say how many were cut, long texts
// keep their start, identifying fields stay whole, validation and error
// fields are never touched, and the entity the call asked about by an id
// or a query stays in its list with its texts):
//   - structuredContent, unless keepStructured (the tool declares an
//     output schema, which a cut list would break: MCP requires a
//     structured result to conform to it, and clients check it);
//   - the text of each text content holding JSON (an object or an
//     array), re-encoded compactly; several such texts share the budget.
//
// Never cut: text that is not JSON (the gateway never truncates text
// blindly), images, audio, resources and resource links. The content
// slice is copied, not changed in place. The note has a Skipped reason
// when nothing could be cut.
func compactResult(res *mcp.CallToolResult, payload *toolcall.Compacted, args json.RawMessage, budget int, keepStructured bool) *Compaction {
	note := &Compaction{Budget: budget}
	var focusArgs any
	decoded := false
	argsValue := func() any {
		if !decoded {
			focusArgs, decoded = decodeArgs(args), true
		}
		return focusArgs
	}
	sawJSON := false // a part that could be cut was looked at
	if res.StructuredContent != nil && !keepStructured && payload != nil {
		sawJSON = true
		if payload.Chars < payload.OriginalChars {
			res.StructuredContent = payload.Value
			note.Parts = append(note.Parts, part("structuredContent", payload))
		}
	}
	var texts []int
	for i, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && isJSONText(tc.Text) {
			texts = append(texts, i)
		}
	}
	// The outcome's payload is the one text's JSON when the result has
	// no structuredContent and one content item.
	onlyText := res.StructuredContent == nil && len(res.Content) == 1 && len(texts) == 1
	share := max(budget/max(len(texts), 1), 1)
	copied := false
	for _, i := range texts {
		tc := res.Content[i].(*mcp.TextContent)
		var c toolcall.Compacted
		if onlyText && payload != nil && isContainer(payload.Value) {
			c = *payload
		} else {
			v, err := jsonvalue.Decode([]byte(strings.TrimSpace(tc.Text)), 0)
			if err != nil {
				continue // not JSON after all: text is never cut blindly
			}
			c = toolcall.CompactFor(v, share, argsValue())
		}
		sawJSON = true
		if c.Chars >= c.OriginalChars {
			continue
		}
		text, err := encodeCompact(c.Value)
		if err != nil {
			continue
		}
		if !copied {
			res.Content, copied = slices.Clone(res.Content), true
		}
		t := *tc
		t.Text = text
		res.Content[i] = &t
		note.Parts = append(note.Parts, part(fmt.Sprintf("content[%d]", i), &c))
	}
	switch {
	case len(note.Parts) > 0:
	case sawJSON:
		note.Skipped = "the result's JSON holds no list or text long enough to cut (an object keeps all its fields): it is left whole, over the budget"
	case keepStructured && res.StructuredContent != nil:
		note.Skipped = "the structured result must match the tool's output schema, and the content holds no other JSON: it is left whole"
	default:
		note.Skipped = "the result's content is not JSON (text is never cut blindly; images and resources never): it is left whole"
	}
	return note
}

func part(at string, c *toolcall.Compacted) CompactedPart {
	return CompactedPart{At: at, OriginalChars: c.OriginalChars, Chars: c.Chars, Cut: c.Cut, Focus: c.Focus, OverBudget: c.OverBudget}
}

// isJSONText reports whether a text looks like a JSON object or array.
func isJSONText(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// decodeArgs decodes the call's arguments as the outcome does (numbers
// kept as written); nil when they are not JSON.
func decodeArgs(args json.RawMessage) any {
	if len(args) == 0 {
		return nil
	}
	v, err := jsonvalue.Decode(args, 0)
	if err != nil {
		return nil
	}
	return v
}

// encodeCompact is v's JSON without HTML escaping, as the compaction
// measured it.
func encodeCompact(v any) (string, error) {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(sb.String(), "\n"), nil
}
