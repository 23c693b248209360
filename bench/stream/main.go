// Command stream measures judge's streaming validator on tool-call
// arguments built from ../shared: the 117 github-mcp-server input schemas
// of the benchmark corpus with their valid arguments, and the 572 tool
// calls GPT-4o made in the recorded tau-bench airline conversations with
// the airline tools' schemas. From each valid argument document it makes
// documents with one mistake, the document's own key order kept: a member
// of the wrong type, a string member that misses its enum (its value with
// "_x" appended), and an unknown key (against the schema made strict, with
// additionalProperties false on every object schema, as OpenAI's strict
// mode requires). Each document is streamed one byte per write through
// judge.Engine.Stream, as a model emits it.
//
// It prints, per kind of mistake: the documents, the false early verdicts
// (an error event for a document Validate finds valid; the valid
// documents are streamed too), the final results equal to Validate's, the
// share reported before their last byte, and the median share of the
// document read when the first error was reported. Then the throughput of
// the streaming validator (Stream, in 64-byte writes, then the whole
// document's validation) against Validate on the valid documents.
//
// Usage (from the repository root, with ../shared beside it):
//
//	go run ./bench/stream [-rounds N] [-throughput] [-cpuprofile FILE]
//
// -throughput measures the throughput alone; -cpuprofile profiles it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/bench/internal/corpus"
	"github.com/agentjudge/judge/internal/jsontoken"
)

// doc is one argument document with its schema.
type doc struct {
	schema json.RawMessage
	text   []byte
	kind   string // "valid", "wrong type", "enum miss", "unknown key"
}

func main() {
	shared := flag.String("shared", "../shared/testdata", "the shared test data directory")
	rounds := flag.Int("rounds", 20, "passes over the valid documents when measuring throughput")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the throughput measurement to this file")
	only := flag.Bool("throughput", false, "measure the throughput only (no table of verdicts)")
	flag.Parse()
	if err := run(*shared, *rounds, *only, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "stream:", err)
		os.Exit(1)
	}
}

func run(shared string, rounds int, only bool, profile string) error {
	c, err := corpus.Load(filepath.Join(shared, "mcp-tools", "bench-corpus.json"))
	if err != nil {
		return err
	}
	var valid []doc
	for _, cs := range c.Cases {
		valid = append(valid, doc{schema: cs.Schema, text: []byte(cs.Valid), kind: "valid"})
	}
	airline, err := airlineCalls(shared)
	if err != nil {
		return err
	}
	valid = append(valid, airline...)

	e, err := judge.New()
	if err != nil {
		return err
	}
	ctx := context.Background()
	if only {
		return measure(ctx, e, c.Large.Schema, []byte(c.Large.Valid), valid, rounds, profile)
	}
	var docs []doc
	for _, d := range valid {
		res, err := e.Validate(ctx, request(d))
		if err != nil || !res.Valid {
			continue // only documents the schema accepts are mutated
		}
		docs = append(docs, d)
		docs = append(docs, mutations(ctx, e, d)...)
	}

	type stats struct {
		n, falseEarly, finalEqual, early int
		shares                           []float64
	}
	by := map[string]*stats{}
	kinds := []string{"valid", "wrong type", "enum miss", "unknown key"}
	for _, k := range kinds {
		by[k] = &stats{}
	}
	for _, d := range docs {
		st := by[d.kind]
		st.n++
		first, equal, validDoc, err := streamOne(ctx, e, d)
		if err != nil {
			return err
		}
		if equal {
			st.finalEqual++
		}
		if first >= 0 && validDoc {
			st.falseEarly++
		}
		if first >= 0 && first < int64(len(d.text)) {
			st.early++
		}
		if first >= 0 {
			st.shares = append(st.shares, float64(first)/float64(len(d.text)))
		}
	}
	fmt.Printf("%-12s %6s %12s %12s %22s %14s\n", "documents", "n", "false early", "final equal", "reported before end", "median share")
	for _, k := range kinds {
		st := by[k]
		med := "-"
		if len(st.shares) > 0 {
			slices.Sort(st.shares)
			med = fmt.Sprintf("%.1f%%", 100*st.shares[len(st.shares)/2])
		}
		before := "-"
		if k != "valid" {
			before = fmt.Sprintf("%d (%.1f%%)", st.early, 100*float64(st.early)/float64(max(st.n, 1)))
		}
		fmt.Printf("%-12s %6d %12d %12d %22s %14s\n", k, st.n, st.falseEarly, st.finalEqual, before, med)
	}
	return measure(ctx, e, c.Large.Schema, []byte(c.Large.Valid), valid, rounds, profile)
}

// measure prints the throughput on the valid argument documents and on
// the corpus's large document, under a CPU profile written to profile
// when it is not empty.
func measure(ctx context.Context, e *judge.Engine, largeSchema json.RawMessage, largeDoc []byte, valid []doc, rounds int, profile string) (err error) {
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if err := throughput(ctx, e, "valid documents", valid, rounds); err != nil {
		return err
	}
	large := []doc{{schema: largeSchema, text: largeDoc, kind: "valid"}}
	return throughput(ctx, e, "large document", large, max(rounds/4, 1))
}

// request is the request validating d.
func request(d doc) *judge.Request {
	return &judge.Request{Output: d.text, ExpectedSchema: d.schema, Options: judge.Options{OutputMode: judge.OutputValue}}
}

// streamOne streams d one byte per write and returns how many bytes had
// been read at the first error event (-1 for none), whether the final
// result equals Validate's, and whether Validate finds d valid.
func streamOne(ctx context.Context, e *judge.Engine, d doc) (first int64, equal, valid bool, err error) {
	want, err := e.Validate(ctx, request(d))
	if err != nil {
		return 0, false, false, err
	}
	first = -1
	note := func(evs []judge.StreamEvent) {
		for _, ev := range evs {
			if !ev.Final && !ev.Result.Valid && first < 0 {
				first = ev.At
			}
		}
	}
	st := e.Stream(request(d))
	for i := range d.text {
		evs, err := st.Write(d.text[i : i+1])
		if err != nil {
			return 0, false, false, fmt.Errorf("%s: %w", d.text, err)
		}
		note(evs)
	}
	evs, err := st.Close(ctx)
	if err != nil {
		return 0, false, false, err
	}
	note(evs)
	got := evs[len(evs)-1].Result
	got.Metadata.DurationMS, want.Metadata.DurationMS = 0, 0
	return first, reflect.DeepEqual(got, want), want.Valid, nil
}

// member is a top-level member of a document: its key and where its key
// and value are.
type member struct {
	key                        string
	keyBegin, valBegin, valEnd int
	kind                       jsontoken.Kind
	text                       string
}

// members returns the top-level members of the object text.
func members(text []byte) ([]member, error) {
	var ms []member
	tk := jsontoken.New(0)
	err := tk.Write(text, func(t *jsontoken.Token) error {
		switch {
		case t.Kind == jsontoken.Key && t.Depth == 1:
			ms = append(ms, member{key: string(t.Text), keyBegin: int(t.Begin), valBegin: -1})
		case len(ms) == 0:
		case t.Depth == 1 && ms[len(ms)-1].valBegin < 0:
			m := &ms[len(ms)-1]
			m.valBegin, m.valEnd, m.kind, m.text = int(t.Begin), int(t.End), t.Kind, string(t.Text)
		case t.Depth == 1 && (t.Kind == jsontoken.EndObject || t.Kind == jsontoken.EndArray):
			ms[len(ms)-1].valEnd = int(t.End)
		}
		return nil
	})
	if err == nil {
		err = tk.Close(func(*jsontoken.Token) error { return nil })
	}
	return ms, err
}

// mutations returns d with one mistake, each kind at each member where it
// applies, kept only when Validate finds the result invalid.
func mutations(ctx context.Context, e *judge.Engine, d doc) []doc {
	var sch map[string]any
	if json.Unmarshal(d.schema, &sch) != nil {
		return nil
	}
	props, _ := sch["properties"].(map[string]any)
	ms, err := members(d.text)
	if err != nil {
		return nil
	}
	var out []doc
	keep := func(m doc) {
		if res, err := e.Validate(ctx, request(m)); err == nil && !res.Valid {
			out = append(out, m)
		}
	}
	splice := func(begin, end int, with string) []byte {
		return slices.Concat(d.text[:begin], []byte(with), d.text[end:])
	}
	for _, m := range ms {
		p, _ := props[m.key].(map[string]any)
		if p == nil {
			continue
		}
		if t, ok := p["type"].(string); ok {
			wrong := map[string]string{"string": "12345", "integer": `"12"`, "number": `"1.5"`, "boolean": `"true"`, "object": `"{}"`, "array": `"[]"`}[t]
			if wrong != "" {
				keep(doc{schema: d.schema, text: splice(m.valBegin, m.valEnd, wrong), kind: "wrong type"})
			}
		}
		if enum, ok := p["enum"].([]any); ok && m.kind == jsontoken.String && slices.Contains(enum, any(m.text)) {
			miss, _ := json.Marshal(m.text + "_x")
			keep(doc{schema: d.schema, text: splice(m.valBegin, m.valEnd, string(miss)), kind: "enum miss"})
		}
	}
	// An unknown key before the middle member, against the strict schema.
	if len(ms) > 0 {
		strict, err := json.Marshal(strictify(sch))
		if err == nil {
			s := doc{schema: strict, text: d.text}
			if res, err := e.Validate(ctx, request(s)); err == nil && res.Valid {
				at := ms[len(ms)/2].keyBegin
				keep(doc{schema: strict, text: splice(at, at, `"unexpected_field": "x", `), kind: "unknown key"})
			}
		}
	}
	return out
}

// strictify sets additionalProperties false on every object schema with
// properties that does not say otherwise, as OpenAI's strict mode does.
func strictify(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			strictify(x)
		}
		if _, ok := v["properties"]; ok {
			if _, set := v["additionalProperties"]; !set {
				v["additionalProperties"] = false
			}
		}
	case []any:
		for _, x := range v {
			strictify(x)
		}
	}
	return v
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// airlineCalls returns the arguments of every tool call of the recorded
// tau-bench airline conversations, with their tool's parameters schema.
func airlineCalls(shared string) ([]doc, error) {
	dir := filepath.Join(shared, "agent-traces")
	toolsData, err := os.ReadFile(filepath.Join(dir, "tau-bench-airline-tools.json"))
	if err != nil {
		return nil, err
	}
	var tools []struct {
		Function struct {
			Name       string
			Parameters json.RawMessage
		}
	}
	if err := json.Unmarshal(toolsData, &tools); err != nil {
		return nil, err
	}
	schemas := map[string]json.RawMessage{}
	for _, t := range tools {
		schemas[t.Function.Name] = t.Function.Parameters
	}
	data, err := os.ReadFile(filepath.Join(dir, "tau-bench-airline-gpt-4o.dev.json"))
	if err != nil {
		return nil, err
	}
	var recs []struct {
		Traj []struct {
			ToolCalls []struct {
				Function struct{ Name, Arguments string }
			} `json:"tool_calls"`
		}
	}
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, err
	}
	var docs []doc
	for _, r := range recs {
		for _, m := range r.Traj {
			for _, tc := range m.ToolCalls {
				if s, ok := schemas[tc.Function.Name]; ok {
					docs = append(docs, doc{schema: s, text: []byte(tc.Function.Arguments), kind: "valid"})
				}
			}
		}
	}
	if len(docs) == 0 {
		return nil, errors.New("no airline tool call found")
	}
	return docs, nil
}

// throughput validates the valid documents rounds times with Validate and
// with Stream (64-byte writes, then Close), and prints both rates.
func throughput(ctx context.Context, e *judge.Engine, what string, docs []doc, rounds int) error {
	var total int64
	for _, d := range docs {
		total += int64(len(d.text))
	}
	validate := func(d doc) error {
		_, err := e.Validate(ctx, request(d))
		return err
	}
	stream := func(d doc) error {
		st := e.Stream(request(d))
		for b := d.text; len(b) > 0; {
			n := min(64, len(b))
			if _, err := st.Write(b[:n]); err != nil {
				return err
			}
			b = b[n:]
		}
		_, err := st.Close(ctx)
		return err
	}
	// Each pass is timed by the process's CPU time, which the machine's
	// other load does not inflate as it does wall time. It follows a
	// collection and an untimed pass of the same function: the collector's
	// work, which either function's garbage may set off, is not charged to
	// whichever pass it lands in (two passes allocate too little to set
	// one off), and the timed pass finds the caches as the function left
	// them, not as the collection did.
	pass := func(f func(d doc) error) (time.Duration, error) {
		runtime.GC()
		var took time.Duration
		for timed := range 2 {
			start := cpuTime()
			for _, d := range docs {
				if err := f(d); err != nil {
					return 0, err
				}
			}
			if timed == 1 {
				took = cpuTime() - start
			}
		}
		return took, nil
	}
	// One pass of each to warm the caches, then rounds of both in turn.
	var whole, streamed time.Duration
	var ratios []float64
	for i := range rounds + 1 {
		w, err := pass(validate)
		if err != nil {
			return err
		}
		s, err := pass(stream)
		if err != nil {
			return err
		}
		if i > 0 {
			whole, streamed = whole+w, streamed+s
			if s > 0 {
				ratios = append(ratios, w.Seconds()/s.Seconds())
			}
		}
	}
	slices.Sort(ratios)
	median := 0.0
	if len(ratios) > 0 {
		median = ratios[len(ratios)/2]
	}
	mb := func(d time.Duration) float64 { return float64(total*int64(rounds)) / d.Seconds() / 1e6 }
	fmt.Printf("throughput on %d %s (%d bytes) x %d, CPU time: Validate %.1f MB/s, Stream %.1f MB/s (%.2f of Validate; median of the rounds %.2f)\n",
		len(docs), what, total, rounds, mb(whole), mb(streamed), whole.Seconds()/streamed.Seconds(), median)
	return nil
}
