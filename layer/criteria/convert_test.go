package criteria

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestCELValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want any
	}{
		{json.Number("3"), int64(3)},
		{json.Number("-0"), int64(0)},
		{json.Number("9223372036854775807"), int64(math.MaxInt64)},
		{json.Number("9223372036854775808"), 9223372036854775808.0},
		{json.Number("3.0"), 3.0},
		{json.Number("1e2"), 100.0},
		{json.Number("0.5"), 0.5},
		{json.Number("1e400"), math.Inf(1)},
		{json.Number("-1e400"), math.Inf(-1)},
		{json.Number("x"), "x"},
		{3.0, int64(3)},
		{2.5, 2.5},
		{1e300, 1e300},
		{7, int64(7)},
		{uint64(math.MaxUint64), float64(math.MaxUint64)},
		{"s", "s"},
		{true, true},
		{nil, nil},
		{
			map[string]any{"a": []any{json.Number("1"), map[string]any{"b": json.Number("2.5")}}},
			map[string]any{"a": []any{int64(1), map[string]any{"b": 2.5}}},
		},
	}
	for _, tt := range tests {
		if got := celValue(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("celValue(%#v) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestCELValueCopies(t *testing.T) {
	t.Parallel()
	in := map[string]any{"a": []any{json.Number("1")}}
	celValue(in)
	if _, ok := in["a"].([]any)[0].(json.Number); !ok {
		t.Error("celValue modified its input")
	}
}
