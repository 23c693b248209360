package strictschema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/strictschema"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonvalue.Decode([]byte(s), 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestStrict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		want   string
		losses []string
	}{
		{
			name: "already strict",
			in:   `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			want: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
		},
		{
			name:   "optional property becomes nullable, all required",
			in:     `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}`,
			want:   `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"]}},"required":["a","b"],"additionalProperties":false}`,
			losses: []string{"#: additionalProperties: properties not listed are no longer allowed"},
		},
		{
			name: "optional enum and ref become anyOf with null",
			in:   `{"type":"object","properties":{"e":{"enum":["x","y"]},"r":{"$ref":"#/$defs/p"}},"$defs":{"p":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}},"additionalProperties":false}`,
			want: `{"type":"object","properties":{"e":{"anyOf":[{"enum":["x","y"]},{"type":"null"}]},"r":{"anyOf":[{"$ref":"#/$defs/p"},{"type":"null"}]}},"required":["e","r"],"additionalProperties":false,
			        "$defs":{"p":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}}}`,
		},
		{
			name: "unsupported keywords are dropped and listed",
			in:   `{"type":"object","properties":{"s":{"type":"string","minLength":1,"format":"uri"},"l":{"type":"array","items":{"type":"string"},"uniqueItems":true}},"required":["s","l"],"additionalProperties":{"type":"string"},"allOf":[{}]}`,
			want: `{"type":"object","properties":{"s":{"type":"string"},"l":{"type":"array","items":{"type":"string"}}},"required":["l","s"],"additionalProperties":false}`,
			losses: []string{
				"#: allOf: the subschemas of allOf are not enforced",
				"#: additionalProperties: properties not listed are no longer allowed",
				`#/properties/l: uniqueItems: items may repeat`,
				`#/properties/s: format: the format "uri" is not checked`,
				"#/properties/s: minLength: the minimum string length is not enforced",
			},
		},
		{
			name:   "oneOf becomes anyOf, nested objects are made strict",
			in:     `{"type":"object","properties":{"v":{"oneOf":[{"type":"object","properties":{"k":{"type":"boolean"}}},{"type":"string"}]}},"required":["v"],"additionalProperties":false}`,
			want:   `{"type":"object","properties":{"v":{"anyOf":[{"type":"object","properties":{"k":{"type":["boolean","null"]}},"required":["k"],"additionalProperties":false},{"type":"string"}]}},"required":["v"],"additionalProperties":false}`,
			losses: []string{"#/properties/v: oneOf: oneOf became anyOf: a value matching more than one subschema is allowed", "#/properties/v/oneOf/0: additionalProperties: properties not listed are no longer allowed"},
		},
		{
			name:   "properties without type are an object; odd names are escaped",
			in:     `{"properties":{"a/b":false},"additionalProperties":false}`,
			want:   `{"type":"object","properties":{"a/b":{}},"required":["a/b"],"additionalProperties":false}`,
			losses: []string{"#/properties/a~1b: false: the schema that allows nothing is replaced by one that allows anything"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := decode(t, tt.in)
			before, _ := json.Marshal(in)
			got, losses, err := strictschema.Strict(in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, decode(t, tt.want)) {
				b, _ := json.Marshal(got)
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
			var ls []string
			for _, l := range losses {
				ls = append(ls, l.String())
			}
			if !slices.Equal(ls, tt.losses) {
				t.Errorf("got losses\n%q\nwant\n%q", ls, tt.losses)
			}
			if after, _ := json.Marshal(in); string(after) != string(before) {
				t.Errorf("the input was modified: %s", after)
			}
		})
	}
}

func TestStrictErrors(t *testing.T) {
	t.Parallel()
	deep := `{"type":"object","properties":{"a":` + strings.Repeat(`{"anyOf":[`, 70) + `{}` + strings.Repeat(`]}`, 70) + `}}`
	tests := []struct{ name, in, want string }{
		{"not an object", `[1]`, "strict schema: #: the schema is an array, not a JSON object"},
		{"root not an object schema", `{"type":"string"}`, `strict schema: #: the root of a strict schema must be an object schema ("type": "object")`},
		{"root without properties or type", `{}`, `strict schema: #: the root of a strict schema must be an object schema ("type": "object")`},
		{"properties not an object", `{"type":"object","properties":[]}`, "strict schema: #/properties: properties is not an object"},
		{"anyOf not a list", `{"type":"object","properties":{"a":{"anyOf":{}}}}`, "strict schema: #/properties/a/anyOf: is not an array of schemas"},
		{"schema a number", `{"type":"object","properties":{"a":3}}`, "strict schema: #/properties/a: a schema is a JSON object or boolean, not a number"},
		{"too deep", deep, "nests more than 64 levels deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := strictschema.Strict(decode(t, tt.in))
			var se *strictschema.SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SchemaError", err)
			}
			if got := err.Error(); got != tt.want && !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNewResponseFormat(t *testing.T) {
	t.Parallel()
	rf, losses, err := strictschema.NewResponseFormat("verdict_1", decode(t, `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`))
	if err != nil || len(losses) != 0 {
		t.Fatalf("got %v, %v", losses, err)
	}
	b, _ := json.Marshal(rf)
	want := `{"type":"json_schema","json_schema":{"name":"verdict_1","schema":{"additionalProperties":false,"properties":{"ok":{"type":"boolean"}},"required":["ok"],"type":"object"},"strict":true}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	for _, name := range []string{"", "has space", "x.y", strings.Repeat("a", 65)} {
		_, _, err := strictschema.NewResponseFormat(name, decode(t, `{"type":"object"}`))
		var ne *strictschema.NameError
		if !errors.As(err, &ne) {
			t.Errorf("name %q: got %v, want a *NameError", name, err)
		}
	}
}

func TestMaxObjectNesting(t *testing.T) {
	t.Parallel()
	s := `{"type":"object"}`
	for range strictschema.MaxObjectNesting {
		s = `{"type":"object","properties":{"a":` + s + `},"required":["a"],"additionalProperties":false}`
	}
	_, losses, err := strictschema.Strict(decode(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if len(losses) != 2 || losses[0].Keyword != "properties" {
		t.Errorf("got %v; want the innermost object's additionalProperties and the nesting listed", losses)
	}
}
