package criteria

import (
	"fmt"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/decls"
	"cel.dev/cel-go/common/functions"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/interpreter"
)

// The cost tracker charges a call after it returns, which is too late for
// a call that builds a value far larger than its arguments ("a".replace
// with a long replacement, join over a list holding one long string many
// times) or that does work growing faster than its arguments (distinct,
// sets.contains, a regular expression search): such a call could
// allocate gigabytes or run for minutes before being charged. A guard
// computes, from the arguments and before the call runs, what the call
// would build or do in cost units, at the rates of cost.go, and stops the
// evaluation when that alone exceeds the cost limit. A stopped rule is
// undecided, as when the cost limit stops it.

// guard returns why a call on args would exceed limit ("build a string of
// 9000000000 bytes"), or "" when it would not. Arguments of unexpected
// types pass: the function reports them.
type guard func(limit uint64, args []ref.Val) string

// guards are the guarded functions by name. Every other function of the
// environment builds at most a small multiple of its arguments' size, in
// time proportional to it, and the cost tracker charges it.
var guards = map[string]guard{
	"replace":               guardReplace,
	"indexOf":               guardSearch,
	"lastIndexOf":           guardSearch,
	"charAt":                guardCopies(4),
	"substring":             guardCopies(5),
	"lowerAscii":            guardCopies(5),
	"upperAscii":            guardCopies(5),
	"strings.quote":         guardCopies(12),
	"base64.encode":         guardCopies(3),
	"base64.decode":         guardCopies(2),
	"format":                guardFormat,
	"join":                  guardJoin,
	"split":                 guardSplit,
	"sort":                  guardSort,
	"@sortByAssociatedKeys": guardSort,
	"distinct":              guardDistinct,
	"flatten":               guardFlatten,
	"reverse":               guardReverse,
	"slice":                 guardSlice,
	"sets.contains":         guardPairs(1),
	"sets.intersects":       guardPairs(1),
	"sets.equivalent":       guardPairs(2),
	"hasAll":                guardPairs(1),
	"hasAny":                guardPairs(1),
	"hasOnly":               guardPairs(1),
	"hasExactly":            guardPairs(2),
	overloads.Matches:       guardRegex(regexMatch),
	"regex.extract":         guardRegex(regexMatch),
	"regex.extractAll":      guardRegex(regexExtractAll),
	"regex.replace":         guardRegex(regexReplace),
}

// callRefused is the cause of an evaluation stopped by a guard. cel-go's
// own causes are small integers.
const callRefused interpreter.CancellationCause = 1 << 16

// guardedImpls are the implementations of the guarded functions, by
// overload id and by function name, as the planner finds them.
var guardedImpls = sync.OnceValues(func() (map[string]*functions.Overload, error) {
	e, err := env()
	if err != nil {
		return nil, err
	}
	impls := map[string]*functions.Overload{}
	for name := range guards {
		fn, ok := e.Functions()[name]
		if !ok {
			return nil, fmt.Errorf("guarded function %s is not in the environment", name)
		}
		bs, err := fn.Bindings()
		if err != nil {
			return nil, err
		}
		for _, b := range bs {
			impls[b.Operator] = b
		}
	}
	return impls, nil
})

// guardCalls is the planner decorator that puts the guard of each guarded
// function before its implementation, and replaces the implementation of
// cel.@mapInsert with mapInsert. The call stays strict and is charged as
// before: it is cel-go's own call node, with the guard inside its
// implementation.
func guardCalls(limit uint64, impls map[string]*functions.Overload) interpreter.InterpretableDecoratorV2 {
	return func(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
		call, ok := i.(interpreter.InterpretableCall)
		if !ok {
			return i, nil
		}
		fn := call.Function()
		g := guards[fn]
		var impl func(args []ref.Val) ref.Val
		switch b := impls[call.OverloadID()]; {
		case fn == mapInsertFunction:
			impl = mapInsert
		case g == nil:
			return i, nil
		case b != nil:
			impl = func(args []ref.Val) ref.Val { return invoke(fn, b, args) }
		case impls[fn] != nil:
			b = impls[fn]
			impl = func(args []ref.Val) ref.Val { return invoke(fn, b, args) }
		default:
			return i, nil
		}
		if fn == overloads.Matches {
			// Compile a constant pattern once, as cel-go's own
			// optimization would have.
			if re, ok := constantPattern(call); ok {
				g = guardRegex(regexPrecompiled)
				impl = func(args []ref.Val) ref.Val {
					s, ok := args[0].(types.String)
					if !ok {
						return decls.MaybeNoSuchOverload(fn, args...)
					}
					return types.Bool(re.MatchString(string(s)))
				}
			}
		}
		guarded := func(args ...ref.Val) ref.Val {
			if g == nil {
				return impl(args)
			}
			if why := g(limit, args); why != "" {
				panic(interpreter.EvalCancelledError{Cause: callRefused,
					Message: fmt.Sprintf("it would %s, over the cost limit of %d", why, limit)})
			}
			return impl(args)
		}
		return opaqueCall{interpreter.NewCall(call.ID(), fn, call.OverloadID(), call.Args(), guarded)}, nil
	}
}

// mapInsertFunction is the function through which the two-variable
// comprehension macros (transformMap, transformMapEntry) build maps.
const mapInsertFunction = "cel.@mapInsert"

// mapInsert is cel.@mapInsert(map, key, value) and cel.@mapInsert(map,
// map). cel-go's own implementation checks the type of every entry of the
// map before each insert, so building a map of n entries takes n² steps:
// lists.range(100000).transformMap(i, v, v) allocated 4 GB and had not
// finished after 10 seconds, at a cost of 500,000. The macros that call
// it are type-checked, so the check is not needed.
func mapInsert(args []ref.Val) ref.Val {
	if len(args) < 2 {
		return decls.MaybeNoSuchOverload(mapInsertFunction, args...)
	}
	m, ok := args[0].(traits.Mapper)
	if !ok {
		return decls.MaybeNoSuchOverload(mapInsertFunction, args...)
	}
	switch len(args) {
	case 3:
		return types.InsertMapKeyValue(m, args[1], args[2])
	case 2:
		um, ok := args[1].(traits.Mapper)
		if !ok {
			return decls.MaybeNoSuchOverload(mapInsertFunction, args...)
		}
		for it := um.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			r := types.InsertMapKeyValue(m, k, um.Get(k))
			if types.IsError(r) {
				return r
			}
			m = r.(traits.Mapper)
		}
		return m
	}
	return decls.MaybeNoSuchOverload(mapInsertFunction, args...)
}

// opaqueCall hides that a guarded call is a call, so that the decorators
// planned after guardCalls (cel-go's regular expression precompiler) do
// not replace it and drop its guard.
type opaqueCall struct{ interpreter.InterpretableV2 }

// constantPattern returns the compiled pattern of a matches call whose
// pattern is a constant.
func constantPattern(call interpreter.InterpretableCall) (*regexp.Regexp, bool) {
	args := call.Args()
	if len(args) != 2 {
		return nil, false
	}
	c, ok := args[1].(interpreter.InterpretableConst)
	if !ok {
		return nil, false
	}
	p, ok := c.Value().(types.String)
	if !ok {
		return nil, false
	}
	re, err := regexp.Compile(string(p))
	return re, err == nil
}

// invoke calls the implementation b of fn on args as the planner would:
// by arity, once the operand has the trait b dispatches on.
func invoke(fn string, b *functions.Overload, args []ref.Val) ref.Val {
	if b.OperandTrait != 0 && (len(args) == 0 || !args[0].Type().HasTrait(b.OperandTrait)) {
		return decls.MaybeNoSuchOverload(fn, args...)
	}
	switch {
	case len(args) == 1 && b.Unary != nil:
		return b.Unary(args[0])
	case len(args) == 2 && b.Binary != nil:
		return b.Binary(args[0], args[1])
	case b.Function != nil:
		return b.Function(args...)
	}
	return decls.MaybeNoSuchOverload(fn, args...)
}

// over returns what, formatted, when units exceed limit, else "".
func over(units, limit uint64, what string, args ...any) string {
	if units <= limit {
		return ""
	}
	return fmt.Sprintf(what, args...)
}

// budget is how many bytes limit units pay for.
func budget(limit uint64) uint64 {
	return cost.SafeMultiply(limit, bytesPerUnit)
}

// strArgs returns the first n arguments, which must be strings.
func strArgs(args []ref.Val, n int) ([]string, bool) {
	if len(args) < n {
		return nil, false
	}
	s := make([]string, n)
	for i := range n {
		v, ok := args[i].(types.String)
		if !ok {
			return nil, false
		}
		s[i] = string(v)
	}
	return s, true
}

// intArg returns argument i, which must be an int.
func intArg(args []ref.Val, i int) (int64, bool) {
	if len(args) <= i {
		return 0, false
	}
	n, ok := args[i].(types.Int)
	return int64(n), ok
}

// guardReplace bounds s.replace(old, new[, n]) by the exact length of its
// result, counted without building it.
func guardReplace(limit uint64, args []ref.Val) string {
	s, ok := strArgs(args, 3)
	if !ok {
		return ""
	}
	k := uint64(strings.Count(s[0], s[1]))
	if n, ok := intArg(args, 3); ok && n >= 0 && uint64(n) < k {
		k = uint64(n)
	}
	size := uint64(len(s[0]))
	if len(s[2]) > len(s[1]) {
		size = cost.SafeAdd(size, cost.SafeMultiply(k, uint64(len(s[2])-len(s[1]))))
	}
	return over(bytesUnits(size), limit, "build a string of %d bytes", size)
}

// guardSearch bounds s.indexOf(sub[, offset]) and s.lastIndexOf(sub[,
// offset]), which compare sub with s at every position, as cel-go charges
// them: a tenth of a unit per pair of code points.
func guardSearch(limit uint64, args []ref.Val) string {
	s, ok := strArgs(args, 2)
	if !ok {
		return ""
	}
	if why := copies(limit, 4, uint64(len(s[0])+len(s[1]))); why != "" {
		return why
	}
	n, m := uint64(utf8.RuneCountInString(s[0])), uint64(utf8.RuneCountInString(s[1]))
	return over(cost.SafeMultiply(n, m)/10, limit, "search a string of %d code points for one of %d", n, m)
}

// guardCopies bounds a function of a string or bytes value that allocates
// about factor bytes per byte of it: cel-go's string functions work on the
// string's code points, 4 bytes each, and build their result from them.
func guardCopies(factor uint64) guard {
	return func(limit uint64, args []ref.Val) string {
		if len(args) == 0 {
			return ""
		}
		switch x := args[0].(type) {
		case types.String:
			return copies(limit, factor, uint64(len(x)))
		case types.Bytes:
			return copies(limit, factor, uint64(len(x)))
		}
		return ""
	}
}

// copies returns why allocating factor bytes per byte of a value of n
// bytes would exceed limit.
func copies(limit, factor, n uint64) string {
	m := cost.SafeMultiply(factor, n)
	return over(bytesUnits(m), limit, "allocate about %d bytes to work on a value of %d bytes", m, n)
}

// formatSlack bounds what a numeric clause (%d, %f, %e, %b, %o) writes:
// a double in fixed notation has up to 309 integer digits, and the
// precision is at most 100.
const formatSlack = 420

// guardFormat bounds f.format(args) by the length of the format plus, for
// each clause, the length of its argument formatted.
func guardFormat(limit uint64, args []ref.Val) string {
	if len(args) != 2 {
		return ""
	}
	f, ok := args[0].(types.String)
	l, ok2 := args[1].(traits.Lister)
	if !ok || !ok2 {
		return ""
	}
	maxBytes := budget(limit)
	n := size(l)
	total := uint64(len(f))
	var arg uint64
	for i := 0; i < len(f) && total <= maxBytes; i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && (f[i] == '.' || '0' <= f[i] && f[i] <= '9') {
			i++
		}
		if i >= len(f) || arg >= n {
			break
		}
		v := l.Get(types.Int(arg))
		arg++
		switch f[i] {
		case 's':
			total = cost.SafeAdd(total, textLen(v, maxBytes-total))
		case 'x', 'X':
			total = cost.SafeAdd(total, cost.SafeMultiply(2, textLen(v, maxBytes-total)))
		default:
			total = cost.SafeAdd(total, formatSlack)
		}
	}
	if total > maxBytes {
		return over(bytesUnits(total), limit, "build a string of more than %d bytes", maxBytes)
	}
	return over(bytesUnits(total), limit, "build a string of up to %d bytes", total)
}

// textLen bounds the length of v formatted by %s, and stops counting once
// it passes limit bytes.
func textLen(v ref.Val, limit uint64) uint64 {
	switch x := v.(type) {
	case types.String:
		return uint64(len(x))
	case types.Bytes:
		return uint64(len(x))
	case types.Double:
		return uint64(len(strconv.FormatFloat(float64(x), 'f', -1, 64)))
	case types.Int, types.Uint:
		return 20
	case types.Bool, types.Null:
		return 5
	case traits.Lister:
		n := uint64(2)
		for it := x.Iterator(); n <= limit && it.HasNext() == types.True; {
			n = cost.SafeAdd(n, 2+textLen(it.Next(), limit-n))
		}
		return n
	case traits.Mapper:
		n := uint64(2)
		for it := x.Iterator(); n <= limit && it.HasNext() == types.True; {
			k := it.Next()
			n = cost.SafeAdd(n, 4+textLen(k, limit-n))
			if n <= limit {
				n = cost.SafeAdd(n, textLen(x.Get(k), limit-n))
			}
		}
		return n
	}
	return 64 // timestamps, durations, types
}

// guardJoin bounds l.join([sep]) by the exact length of its result.
func guardJoin(limit uint64, args []ref.Val) string {
	if len(args) == 0 {
		return ""
	}
	l, ok := args[0].(traits.Lister)
	if !ok {
		return ""
	}
	var sep uint64
	if len(args) == 2 {
		s, ok := args[1].(types.String)
		if !ok {
			return ""
		}
		sep = uint64(len(s))
	}
	maxBytes := budget(limit)
	n := size(l)
	var total uint64
	if n > 0 {
		total = cost.SafeMultiply(n-1, sep)
	}
	i := uint64(0)
	for ; i < n && total <= maxBytes; i++ {
		if s, ok := l.Get(types.Int(i)).(types.String); ok {
			total = cost.SafeAdd(total, uint64(len(s)))
		}
	}
	if i < n {
		return over(bytesUnits(total), limit, "build a string of more than %d bytes", maxBytes)
	}
	return over(bytesUnits(total), limit, "build a string of %d bytes", total)
}

// guardSplit bounds s.split(sep[, n]) by the number of its parts.
func guardSplit(limit uint64, args []ref.Val) string {
	s, ok := strArgs(args, 2)
	if !ok {
		return ""
	}
	// split("") makes one part per code point.
	parts := uint64(utf8.RuneCountInString(s[0]))
	if s[1] != "" {
		parts = uint64(strings.Count(s[0], s[1])) + 1
	}
	if n, ok := intArg(args, 2); ok && n >= 0 && uint64(n) < parts {
		parts = uint64(n)
	}
	return over(cost.SafeMultiply(parts, unitsPerElement), limit, "split a string into %d parts", parts)
}

// guardSort bounds l.sort() and l.sortBy(...) by their comparisons and
// the two lists of indexes and results they build.
func guardSort(limit uint64, args []ref.Val) string {
	if len(args) == 0 {
		return ""
	}
	n := size(args[0])
	units := cost.SafeAdd(cost.SafeMultiply(n, uint64(bits.Len64(n))), cost.SafeMultiply(n, 2*unitsPerElement))
	return over(units, limit, "sort a list of %d elements", n)
}

// guardDistinct bounds l.distinct(), which compares every element with
// the distinct ones before it.
func guardDistinct(limit uint64, args []ref.Val) string {
	if len(args) == 0 {
		return ""
	}
	n := size(args[0])
	return over(cost.SafeMultiply(n, n), limit, "compare the %d elements of a list with each other", n)
}

// guardFlatten bounds l.flatten([depth]) by the elements it visits.
func guardFlatten(limit uint64, args []ref.Val) string {
	if len(args) == 0 {
		return ""
	}
	l, ok := args[0].(traits.Lister)
	if !ok {
		return ""
	}
	depth := int64(1)
	if len(args) == 2 {
		if depth, ok = intArg(args, 1); !ok || depth < 0 {
			return ""
		}
	}
	maxVisits := limit / unitsPerElement
	n := visits(l, depth, maxVisits)
	return over(cost.SafeMultiply(n, unitsPerElement), limit, "flatten lists of more than %d elements", maxVisits)
}

// visits counts the elements of l and of the lists in it down to depth,
// and stops counting once it passes limit.
func visits(l traits.Lister, depth int64, limit uint64) uint64 {
	var n uint64
	sz := size(l)
	for i := uint64(0); i < sz && n <= limit; i++ {
		n++
		if nested, ok := l.Get(types.Int(i)).(traits.Lister); ok && depth > 0 && n <= limit {
			n = cost.SafeAdd(n, visits(nested, depth-1, limit-n))
		}
	}
	return n
}

// guardReverse bounds l.reverse() by the list it builds, and s.reverse()
// by the code points it copies.
func guardReverse(limit uint64, args []ref.Val) string {
	if len(args) == 0 {
		return ""
	}
	if _, ok := args[0].(traits.Lister); !ok {
		return guardCopies(5)(limit, args)
	}
	n := size(args[0])
	return over(cost.SafeMultiply(n, unitsPerElement), limit, "copy a list of %d elements", n)
}

// guardSlice bounds l.slice(start, end) by the list it builds.
func guardSlice(limit uint64, args []ref.Val) string {
	start, ok := intArg(args, 1)
	end, ok2 := intArg(args, 2)
	if !ok || !ok2 || start < 0 || end < start || uint64(end) > size(args[0]) {
		return "" // the function reports it
	}
	n := uint64(end - start)
	return over(cost.SafeMultiply(n, unitsPerElement), limit, "copy a list of %d elements", n)
}

// guardPairs bounds the set functions, which compare each element of one
// list with each of the other, factor times over.
func guardPairs(factor uint64) guard {
	return func(limit uint64, args []ref.Val) string {
		if len(args) != 2 {
			return ""
		}
		n, m := size(args[0]), size(args[1])
		units := cost.SafeMultiply(factor, cost.SafeMultiply(n, m))
		return over(units, limit, "compare %d × %d list elements", n, m)
	}
}

// regexCall is what a regular expression function does beyond searching.
type regexCall int

const (
	regexPrecompiled regexCall = iota // matches with a constant pattern: search only
	regexMatch                        // compile and search
	regexExtractAll                   // compile, search and keep every match
	regexReplace                      // compile, search, keep every match and build a string
)

// guardRegex bounds matches and the regex functions on (target, pattern,
// ...): compiling the pattern, searching the target as cel-go charges it,
// and, for extractAll and replace, keeping every match and building the
// result.
func guardRegex(kind regexCall) guard {
	return func(limit uint64, args []ref.Val) string {
		s, ok := strArgs(args, 2)
		if !ok {
			return ""
		}
		t, p := s[0], s[1]
		if kind != regexPrecompiled {
			units := cost.SafeMultiply(uint64(len(p)), unitsPerPatternByte)
			if why := over(units, limit, "compile a regular expression of %d bytes", len(p)); why != "" {
				return why
			}
		}
		// cel-go charges a search 0.1·(len(t)+1) × 0.25·(len(p)+1).
		search := cost.SafeMultiply(uint64(len(t))+1, uint64(len(p))+1) / 40
		if why := over(search, limit, "search a string of %d bytes with a regular expression of %d bytes", len(t), len(p)); why != "" {
			return why
		}
		if kind < regexExtractAll {
			return ""
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return "" // the function reports it
		}
		maxMatches := limit / unitsPerMatch
		matches := uint64(len(re.FindAllStringIndex(t, int(min(maxMatches, 1<<30))+1)))
		if why := over(cost.SafeMultiply(matches, unitsPerMatch), limit, "keep more than %d matches of a regular expression", maxMatches); why != "" {
			return why
		}
		if kind != regexReplace {
			return ""
		}
		repl, ok := args[2].(types.String)
		if !ok {
			return ""
		}
		// Each match is replaced by repl with its group references
		// (\1) expanded; the groups of all matches together are no
		// longer than the target.
		refs := uint64(strings.Count(string(repl), `\`))
		size := cost.SafeAdd(cost.SafeMultiply(uint64(len(t)), refs+1), cost.SafeMultiply(matches, uint64(len(repl))))
		return over(bytesUnits(size), limit, "build a string of up to %d bytes", size)
	}
}
