package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// Prepared is a request made ready to check many outputs, as OPA's rego
// prepares a query once and evaluates it many times: its schemas decoded,
// keyed and compiled, its context decoded, its trusted sources resolved,
// its options checked. Make one with [Engine.Prepare]; a Prepared is
// immutable and safe for concurrent use, and lives as long as its Engine.
type Prepared struct {
	e   *Engine
	req Request     // the request, without its output
	in  layer.Input // the input every output shares: all but Output and Text
	// doc is the document of the expected schema in the engine (whose
	// bytes req.ExpectedSchema holds), or nil without one: the fast path
	// takes it as found instead of looking it up by its bytes.
	doc *schemaDoc
}

// Prepare makes req, whose Output is ignored, ready to check many outputs
// with [Prepared.Validate]. It does once what Validate does for every
// request before reading the output: it decodes the context and the
// schemas, resolves the trusted sources, and has every layer that declares
// a fast path ([layer.Layer.Prepare]) compile the expected schema, so that
// a schema that does not compile is an error here rather than at the first
// output. It returns a *RequestError when req is malformed and ctx.Err()
// when ctx has ended. Criteria rules are compiled at the first output, and
// kept in the engine's cache as for Validate.
func (e *Engine) Prepare(ctx context.Context, req *Request) (*Prepared, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := &Prepared{e: e, req: *req}
	p.req.Output = nil
	switch req.Options.OutputMode {
	case "", OutputAuto, OutputValue:
	default:
		return nil, &RequestError{Field: "options.output_mode", Msg: fmt.Sprintf("output_mode %q is not %q or %q", req.Options.OutputMode, OutputAuto, OutputValue)}
	}
	if ms := req.Options.TimeoutMS; ms < 0 {
		return nil, &RequestError{Field: "options.timeout_ms", Msg: fmt.Sprintf("timeout_ms %d is negative", ms)}
	}
	// The schemas' bytes are the Prepared's own from here on: a caller
	// changing its slices in place must not change what the Prepared
	// checks. The expected schema's are its document's in e.docs (never
	// written), which the fast path then takes as found: no look-up by the
	// bytes, no byte compared, at any output.
	if len(req.ExpectedSchema) > 0 {
		p.doc = e.docs.get(req.ExpectedSchema)
		p.req.ExpectedSchema = p.doc.raw
	}
	// So are its other slices: the criteria, layers, sources and context
	// a caller changes after Prepare change nothing the Prepared checks.
	p.req.ValidationTypes = slices.Clone(req.ValidationTypes)
	p.req.AcceptanceCriteria = slices.Clone(req.AcceptanceCriteria)
	p.req.TrustedSources = slices.Clone(req.TrustedSources)
	p.req.Sources = slices.Clone(req.Sources)
	p.req.Context = bytes.Clone(req.Context)
	if len(req.Schemas) > 0 {
		p.req.Schemas = make(map[string]json.RawMessage, len(req.Schemas))
		for uri, raw := range req.Schemas {
			p.req.Schemas[uri] = bytes.Clone(raw)
		}
	}
	if err := e.sharedInput(&p.req, &p.in); err != nil {
		return nil, err
	}
	if len(req.ExpectedSchema) > 0 {
		for _, l := range e.layers {
			if l.Prepare == nil {
				continue
			}
			if _, err := l.Prepare(e.caches[l.Name], &p.in); err != nil {
				var ie *layer.InputError
				if errors.As(err, &ie) {
					return nil, &RequestError{Field: ie.Location, Msg: ie.Msg, Err: ie}
				}
				return nil, fmt.Errorf("judge: the %s layer could not prepare the schema: %w", l.Name, err)
			}
		}
	}
	return p, nil
}

// Validate checks output, a JSON value (a string is read as the request's
// output_mode says), against the prepared request, and returns the result
// Engine.Validate would return for the request with that output. The
// errors are Engine.Validate's.
func (p *Prepared) Validate(ctx context.Context, output json.RawMessage) (*result.ValidationResult, error) {
	at := p.e.clock()
	req := p.req
	req.Output = output
	if r := p.e.validateFastDoc(ctx, &req, at, p.doc); r != nil {
		return r, nil
	}
	if len(output) == 0 {
		return nil, &RequestError{Field: "output", Msg: "the request has no output", Err: ErrNoOutput}
	}
	in := p.in
	notes, err := p.e.readOutput(&req, &in)
	if err != nil {
		return nil, err
	}
	return p.e.check(ctx, &req, &in, notes, p.e.start(at))
}
