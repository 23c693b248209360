package jsonvalue

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// appendMatches checks that Append writes v as an encoding/json Encoder
// without HTML escaping does, byte for byte, and as JSON that reads back
// as encoding/json's encoding of v reads back, numbers to the letter.
func appendMatches(t *testing.T, v any) {
	t.Helper()
	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	e.SetEscapeHTML(false)
	werr := e.Encode(v)
	want := bytes.TrimSuffix(enc.Bytes(), []byte("\n"))
	got, err := Append(nil, v)
	if (err != nil) != (werr != nil) {
		t.Fatalf("Append(%#v) error %v, encoding/json's %v", v, err, werr)
	}
	if err != nil {
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Append(%#v) = %s, encoding/json writes %s", v, got, want)
	}
	g, w := readNumbers(t, got), readNumbers(t, want)
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("Append(%#v) = %s, reads back as %#v; encoding/json's %s as %#v", v, got, g, want, w)
	}
}

// readNumbers decodes data with numbers as their text.
func readNumbers(t *testing.T, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return v
}

func TestAppend(t *testing.T) {
	t.Parallel()
	for _, v := range []any{
		nil, true, false, "", "plain", "quote \" backslash \\ tab \t nl \n cr \r nul \x00 bell \x07 del \x7f",
		"<html> & \u2028", "bad utf-8 \xff\xfe end", "é 中 😀",
		json.Number("12"), json.Number("-0.5e-3"), json.Number("1e400"),
		0.0, math.Copysign(0, -1), 1.0, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, -3.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64,
		map[string]any{}, []any{}, map[string]any{"a": []any{1.0, "x", nil, map[string]any{"k\"ey": false}}},
		[]any{[]any{[]any{}}}, struct{ A int }{3}, 7,
	} {
		appendMatches(t, v)
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), json.Number("1x"), json.Number(""), []any{math.Inf(-1)}} {
		if b, err := Append(nil, bad); err == nil {
			t.Errorf("Append(%#v) = %s, want an error", bad, b)
		}
	}
}

// FuzzAppend: what Decode returns, Append writes as JSON that reads back
// as encoding/json's encoding of it does.
func FuzzAppend(f *testing.F) {
	for _, s := range edgeCases {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":[1,2.5e-9,"\u0000\ud800x",{"b":null}],"c":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, 0)
		if err != nil {
			return
		}
		appendMatches(t, v)
	})
}

func BenchmarkAppend(b *testing.B) {
	v, err := Decode([]byte(`{"action": "by_time_span", "start": "2026-01-01", "end": "2026-01-31", "limit": 20, "tags": ["a", "b"], "ratio": 0.25}`), 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Append", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf, _ = Append(buf[:0], v)
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(v)
		}
	})
}

// FuzzAppendFloat: every float64 is written as encoding/json writes it,
// to the letter, or refused as it refuses it.
func FuzzAppendFloat(f *testing.F) {
	for _, x := range []float64{0, 1, -1e-7, 1e21, 123.456, math.MaxFloat64, math.Inf(1)} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		got, err := Append(nil, x)
		want, werr := json.Marshal(x)
		if (err != nil) != (werr != nil) || string(got) != string(want) {
			t.Fatalf("Append(%v) = %s, %v; encoding/json: %s, %v", x, got, err, want, werr)
		}
	})
}
