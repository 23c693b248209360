package judge_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
)

// streamFinal streams req's output into e in random chunks and returns the
// events; it fails t on an error event for an output Validate finds valid,
// and on a final result that differs from Validate's.
func streamFinal(t *testing.T, e *judge.Engine, req *judge.Request, rng *rand.Rand) []judge.StreamEvent {
	t.Helper()
	ctx := context.Background()
	want, werr := e.Validate(ctx, req)
	st := e.Stream(req)
	var evs []judge.StreamEvent
	out := req.Output
	for len(out) > 0 {
		n := 1 + rng.IntN(8)
		if n > len(out) {
			n = len(out)
		}
		ev, err := st.Write(out[:n])
		evs = append(evs, ev...)
		out = out[n:]
		if err != nil {
			if werr == nil {
				t.Fatalf("%s: stream error %v, Validate none", req.Output, err)
			}
			return evs
		}
	}
	last, err := st.Close(ctx)
	evs = append(evs, last...)
	if (err != nil) != (werr != nil) {
		t.Fatalf("%s: Close error %v, Validate error %v", req.Output, err, werr)
	}
	if werr != nil {
		return evs
	}
	final := evs[len(evs)-1]
	if !final.Final || final.At != int64(len(req.Output)) {
		t.Fatalf("%s: last event %+v is not final", req.Output, final)
	}
	got := *final.Result
	got.Metadata.DurationMS, want.Metadata.DurationMS = 0, 0
	if !reflect.DeepEqual(&got, want) {
		t.Fatalf("%s: final result\n%+v\nValidate\n%+v", req.Output, got, *want)
	}
	for _, ev := range evs[:len(evs)-1] {
		if !ev.Result.Valid && want.Valid {
			t.Fatalf("%s: false early verdict at %d: %+v", req.Output, ev.At, ev.Result.Issues)
		}
	}
	return evs
}

// TestEngineStream streams every document of the JSON Schema Test Suite
// and of the benchmark corpus through an Engine: the final event's result
// equals Validate's, and no early error comes for a valid output.
func TestEngineStream(t *testing.T) {
	t.Parallel()
	suiteDir, schemas, e := suiteEngine(t)
	var docs atomic.Int64
	t.Run("suite", func(t *testing.T) {
		for _, d := range sharedtest.SuiteDrafts {
			for _, file := range sharedtest.SuiteFiles(t, suiteDir, d) {
				t.Run(d.Dir+"/"+filepath.Base(file), func(t *testing.T) {
					t.Parallel()
					rng := rand.New(rand.NewPCG(1, uint64(len(file))))
					for _, g := range sharedtest.ReadSuiteFile(t, file, d) {
						for _, tc := range g.Tests {
							docs.Add(1)
							streamFinal(t, e, &judge.Request{Output: tc.Data, ExpectedSchema: g.Schema, Schemas: schemas,
								Options: judge.Options{OutputMode: judge.OutputValue}}, rng)
						}
					}
				})
			}
		}
	})
	t.Run("corpus", func(t *testing.T) {
		t.Parallel()
		rng := rand.New(rand.NewPCG(3, 4))
		for _, c := range sharedtest.LoadBenchCorpus(t).Cases {
			for _, doc := range []string{c.Valid, c.Invalid} {
				docs.Add(1)
				streamFinal(t, e, &judge.Request{Output: json.RawMessage(doc), ExpectedSchema: c.Schema}, rng)
			}
		}
	})
	if docs.Load() < 1000 {
		t.Fatalf("only %d documents streamed", docs.Load())
	}
}

// TestEngineStreamEvents checks the events of one output: an early
// invalid_type at the byte that decides it, built as a result, then the
// final.
func TestEngineStreamEvents(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	req := &judge.Request{Output: json.RawMessage(`{"owner": 12345, "repo": "r"}`),
		ExpectedSchema: json.RawMessage(`{"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}}}`)}
	evs := streamFinal(t, e, req, rand.New(rand.NewPCG(5, 6)))
	if len(evs) != 2 {
		t.Fatalf("events %+v, want one early and the final", evs)
	}
	early := evs[0]
	if early.At != 11 || early.Final || early.Result.Valid || len(early.Result.Issues) != 1 ||
		early.Result.Issues[0].Type != result.InvalidType || early.Result.Issues[0].Location != "owner" {
		t.Fatalf("early event %+v", early)
	}
}

// TestEngineStreamDepth checks that a stream nests as deep as its engine
// allows: no deeper (Validate refuses the output) and no shallower.
func TestEngineStreamDepth(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ engineDepth, docDepth int }{{3, 4}, {3, 3}, {300, 280}} {
		e, err := judge.New(judge.WithMaxDepth(tc.engineDepth))
		if err != nil {
			t.Fatal(err)
		}
		doc := strings.Repeat("[", tc.docDepth) + strings.Repeat("]", tc.docDepth)
		streamFinal(t, e, &judge.Request{Output: json.RawMessage(doc), ExpectedSchema: json.RawMessage(`{"type": "array"}`)}, rng)
	}
}

// TestEngineStreamObserved checks that Close tells a layer observer of the
// run as Validate does, for an output the stream vouches for and for one
// it leaves to Validate.
func TestEngineStreamObserved(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	schema := json.RawMessage(`{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}`)
	for _, out := range []string{`{"a": 1}`, `{"b": 1}`} {
		var streamed, validated runs
		req := &judge.Request{Output: json.RawMessage(out), ExpectedSchema: schema}
		if _, err := e.Validate(judge.ObserveLayers(context.Background(), validated.observe), req); err != nil {
			t.Fatal(err)
		}
		st := e.Stream(req)
		if _, err := st.Write(req.Output); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Close(judge.ObserveLayers(context.Background(), streamed.observe)); err != nil {
			t.Fatal(err)
		}
		if len(streamed.got) != 1 || len(validated.got) != 1 || streamed.got[0].Layer != validated.got[0].Layer ||
			len(streamed.got[0].Issues) != len(validated.got[0].Issues) {
			t.Errorf("%s: streamed runs %+v, Validate's %+v", out, streamed.got, validated.got)
		}
	}
}
