package criteria

import "unsafe"

// What a compiled program costs, measured by TestSizeEstimate: a fixed
// part (the planned program, its cost tracker, its decorators) and a part
// that grows with the expression's text (its AST and planned steps).
const (
	programBaseBytes    = 8 << 10
	programPerTextBytes = 20
)

// Size estimates the bytes a compiled program holds; the criteria layer's
// cache charges it against its byte budget.
func (p *program) Size() int64 {
	n := int64(unsafe.Sizeof(*p)) + programBaseBytes + programPerTextBytes*int64(p.textLen)
	for _, r := range p.refs {
		n += 16 + int64(len(r))
	}
	return n
}

// Size estimates the bytes a cached compile error holds.
func (e *compileError) Size() int64 {
	n := int64(len(e.text)) + 64
	for _, err := range e.errs {
		n += int64(len(err.Message)) + 128
	}
	return n
}
