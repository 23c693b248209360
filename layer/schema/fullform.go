package schema

import (
	"fmt"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fullForm is santhosh-tekuri's compiled form of a schema: what the slow
// path validates with, and what the reporter words issues from (the
// failed schema of an error, found by its location). The fast path's
// nodes keep what a valid document and a direct issue need, so for a
// schema the fast path covers, the full form is needed only by documents
// the fast path leaves to the reporter or to the slow path, and to work
// out a node's words once (scanner.words). Such a schema keeps it weakly
// (compiled.form, decision 111): about 6 KB of a github-mcp-server input
// schema that the heap no longer holds once the nodes have what they need
// (memory saved; the collector's work a document stays, decision 111
// says why), compiled again, from the same decoded documents, when needed
// after the collector freed it.
type fullForm struct {
	sch *jsonschema.Schema
	// index holds every compiled schema reachable from sch by its Location.
	index map[string]*jsonschema.Schema
	// fields holds the fieldDesc of property schemas named by issues
	// (see reporter.fieldInfo), by *jsonschema.Schema.
	fields sync.Map
}

// fullSource is what compile took, kept to compile the full form again.
// The engine keeps the decoded documents anyway (schemaDoc.value), so
// holding them here costs nothing more there.
type fullSource struct {
	expected     any
	locals       map[string]any
	assertFormat bool
}

// fullHolder holds a compiled schema's full form: strongly (strong), or,
// for a schema the fast path covers, weakly until a document's issues need
// it (weak, under mu).
type fullHolder struct {
	strong atomic.Pointer[fullForm]
	mu     sync.Mutex
	weak   weak.Pointer[fullForm]
	src    *fullSource // nil once strong is set for good
	// compiles counts the full forms compiled again (for the tests).
	compiles atomic.Int32
}

// form returns c's full form, compiling it again when the collector freed
// it. keep makes it strong from then on: a document whose issues go
// through the reporter (an error tree, the slow path, a stream) is likely
// to be followed by others like it, which should not each pay a compile.
// A node's words and an issue's texts written directly, worked out once
// and kept on the node, ask without keep. It panics if the schema, which
// compiled before, does not compile again (never expected): the fast
// path's recover leaves the document to the slow path, whose own recover
// turns it into an error.
func (c *compiled) form(keep bool) *fullForm {
	h := &c.full
	if f := h.strong.Load(); f != nil {
		return f
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if f := h.strong.Load(); f != nil {
		return f
	}
	f := h.weak.Value()
	if f == nil {
		var err error
		if f, err = compileFull(h.src.expected, h.src.locals, h.src.assertFormat); err != nil {
			panic(fmt.Sprintf("schema: the schema no longer compiles: %v", err))
		}
		h.compiles.Add(1)
		h.weak = weak.Make(f)
	}
	if keep {
		h.strong.Store(f)
		h.src = nil
	}
	return f
}

// hold keeps f as c's full form: weakly, with src to compile it again,
// when the fast path covers the schema; else strongly.
func (c *compiled) hold(f *fullForm, src *fullSource) {
	if c.fast == nil {
		c.full.strong.Store(f)
		return
	}
	c.full.weak, c.full.src = weak.Make(f), src
}

// compileFull compiles expected with locals into santhosh-tekuri's form,
// as compile does, without its checks of the schema's depth and $ref
// cycles (done once, by compile).
func compileFull(expected any, locals map[string]any, assertFormat bool) (*fullForm, error) {
	return newBuilder(expected, locals).compileFull(expected, assertFormat)
}

// compileFull compiles expected, whose documents b holds, into
// santhosh-tekuri's form; its errors are the compiler's, which compile
// turns into input errors.
func (b *builder) compileFull(expected any, assertFormat bool) (*fullForm, error) {
	comp := jsonschema.NewCompiler()
	comp.UseLoader(loader{b.docs})
	comp.DefaultDraft(b.draft)
	if assertFormat {
		comp.AssertFormat()
	}
	if err := comp.AddResource(b.mainURL, expected); err != nil {
		return nil, err
	}
	sch, err := comp.Compile(b.mainURL)
	if err != nil {
		return nil, err
	}
	return &fullForm{sch: sch, index: indexSchemas(sch)}, nil
}
