package criteria

import (
	"reflect"

	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// Rates at which evaluation pays for memory, in CEL cost units. A cost
// unit stands for about ten bytes: cel-go charges a tenth of a unit per
// byte of a string it traverses, so the cost limit of a million units lets
// a rule build about 10 MB.
const (
	// bytesPerUnit is how many bytes of a string or bytes value one unit
	// pays for.
	bytesPerUnit = 10
	// unitsPerElement is what a guarded call pays for each element of a
	// list it builds: a CEL value takes 16 bytes in a list.
	unitsPerElement = 2
	// unitsPerPatternByte is what compiling a regular expression pays per
	// byte of its pattern: Go's regexp allocates about 250 bytes per byte
	// of pattern, and takes about a microsecond.
	unitsPerPatternByte = 25
	// unitsPerMatch is what a guarded regular expression call pays for
	// each match it finds: Go's regexp allocates about 80 bytes of
	// indexes per match.
	unitsPerMatch = 8
)

// buildCost is the runtime cost estimator of every program. cel-go charges
// most calls before this estimator is asked, through the cost models of
// its extension libraries, which count the values they build. The calls
// that reach it are the standard library's, calls the checker could not
// resolve to one overload because their arguments are dyn (output.s +
// output.s), and extension calls without a model (format, base64,
// cel.@mapInsert). buildCost charges each the larger of what cel-go's
// standard model charges for the overload that ran and what the value it
// built is worth (builtUnits), so a call on dyn values costs what it
// costs on typed ones, and no call builds a value for free.
//
// buildCost is stateless and safe for concurrent use.
type buildCost struct{}

// standardTrackers are cel-go's runtime costs of its standard overloads.
var standardTrackers = cost.StandardOverloadTrackers()

// CallCost implements cost.ActualCostEstimator.
func (buildCost) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	if overloadID == "" {
		overloadID = runtimeOverload(function, args)
	}
	c := uint64(1)
	if track, ok := standardTrackers[overloadID]; ok {
		if tc := track(args, result); tc != nil {
			c = *tc
		}
	}
	c = max(c, builtUnits(function, args, result))
	return &c
}

// comparisons are the standard overloads of the comparison operators on
// strings and on bytes, whose cost grows with their operands.
var comparisons = map[string][2]string{
	operators.Less:          {overloads.LessString, overloads.LessBytes},
	operators.LessEquals:    {overloads.LessEqualsString, overloads.LessEqualsBytes},
	operators.Greater:       {overloads.GreaterString, overloads.GreaterBytes},
	operators.GreaterEquals: {overloads.GreaterEqualsString, overloads.GreaterEqualsBytes},
}

// runtimeOverload returns the standard overload that a call dispatched at
// run time executed on args, when cel-go has a cost model for it, else "".
func runtimeOverload(function string, args []ref.Val) string {
	if len(args) == 0 {
		return ""
	}
	switch function {
	case operators.Add:
		switch args[0].(type) {
		case types.String:
			return overloads.AddString
		case types.Bytes:
			return overloads.AddBytes
		case traits.Lister:
			return overloads.AddList
		}
	case operators.In:
		if len(args) == 2 {
			if _, ok := args[1].(traits.Lister); ok {
				return overloads.InList
			}
		}
	case overloads.TypeConvertString:
		if _, ok := args[0].(types.Bytes); ok {
			return overloads.BytesToString
		}
	case overloads.TypeConvertBytes:
		if _, ok := args[0].(types.String); ok {
			return overloads.StringToBytes
		}
	}
	if ids, ok := comparisons[function]; ok {
		switch args[0].(type) {
		case types.String:
			return ids[0]
		case types.Bytes:
			return ids[1]
		}
	}
	return ""
}

// builtUnits is what the value a call returned is worth when the call
// built it: a unit per bytesPerUnit bytes of a string or bytes value, a
// unit per element of a list or entry of a map. A result that is one of
// the arguments (dyn(x), string(s), the value of an optional, the
// accumulator a comprehension updates in place) was not built and is
// free. Concatenating lists shares both operands, so it costs the smaller
// one: that keeps the length of any list within the output's lists plus
// the cost limit, while a comprehension appending one element at a time
// pays one unit per element.
func builtUnits(function string, args []ref.Val, result ref.Val) uint64 {
	var units uint64
	switch r := result.(type) {
	case types.String:
		units = bytesUnits(uint64(len(r)))
	case types.Bytes:
		units = bytesUnits(uint64(len(r)))
	case traits.Lister, traits.Mapper:
		units = size(result)
		if function == operators.Add && len(args) == 2 {
			units = min(size(args[0]), size(args[1]))
		}
	default:
		return 0
	}
	for _, a := range args {
		if same(a, result) {
			return 0
		}
	}
	return units
}

// same reports whether a and b are the same value in memory, not merely
// equal: the same string or bytes, or the same list or map.
func same(a, b ref.Val) bool {
	switch x := a.(type) {
	case types.String:
		// Go compares strings that share their bytes without reading
		// them.
		y, ok := b.(types.String)
		return ok && len(x) == len(y) && x == y
	case types.Bytes:
		y, ok := b.(types.Bytes)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	case traits.Lister, traits.Mapper:
		va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
		return va.Kind() == reflect.Pointer && vb.Kind() == reflect.Pointer && va.Pointer() == vb.Pointer()
	}
	return false
}

// size returns the number of elements of a list or entries of a map, else
// 0.
func size(v ref.Val) uint64 {
	if s, ok := v.(traits.Sizer); ok {
		if n, ok := s.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// bytesUnits is what n bytes are worth, rounded up.
func bytesUnits(n uint64) uint64 {
	return n/bytesPerUnit + min(n%bytesPerUnit, 1)
}
