package clienttest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentjudge/judge/proxy/proxytest"
)

// TestFakeResponsesShapes checks that the fake upstream's Responses
// events and answers have openai-go's shapes: each event decodes into the
// variant its type names, with every member the type marks required
// present and of its type, and no member the type does not know —
// recursively, through the response object and its output items.
func TestFakeResponsesShapes(t *testing.T) {
	t.Parallel()
	req := []byte(`{"model":"m","input":"x","max_output_tokens":500,"text":{"format":{"type":"json_schema","name":"w","strict":true,"schema":{"type":"object"}}},"tools":[{"type":"function","name":"f","parameters":{"type":"object"},"strict":true}]}`)
	scripts := []proxytest.Script{
		{Choices: []proxytest.Choice{{Content: `{"city":"Paris"}`}}},
		{Choices: []proxytest.Choice{{Calls: airlineCalls}}},
		{Choices: []proxytest.Choice{{Content: "Booking both.", Calls: airlineCalls[:1]}}},
	}
	for _, sc := range scripts {
		for _, ev := range proxytest.ResponseEventsOf(sc, req) {
			typ, data, ok := strings.Cut(strings.TrimPrefix(ev, "event: "), "\ndata: ")
			if !ok || !strings.HasSuffix(data, "\n\n") {
				t.Fatalf("not one event: %q", ev)
			}
			var u responses.ResponseStreamEventUnion
			if err := json.Unmarshal([]byte(data), &u); err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			v := u.AsAny()
			if v == nil || u.Type != typ {
				t.Fatalf("%s: openai-go knows no such event (%T)", typ, v)
			}
			checkShape(t, typ, reflect.ValueOf(v))
		}
		var res responses.Response
		b, _ := json.Marshal(proxytest.ResponseOf(sc, req))
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatal(err)
		}
		checkShape(t, "response", reflect.ValueOf(res))
	}
}

// wireOnly are members OpenAI sends that openai-go v3.96.0's types do not
// declare: a delta's obfuscation (stream_options.include_obfuscation, on
// by default) and the response's store. The fake sends them, as OpenAI
// does, and the proxy must forward them untouched.
var wireOnly = map[string]bool{"obfuscation": true, "store": true}

// checkShape checks v, an openai-go response type, and what it holds.
func checkShape(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	if v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice:
		for i := range v.Len() {
			checkShape(t, path+"[]", v.Index(i))
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if m := v.MethodByName("AsAny"); m.IsValid() && strings.HasSuffix(v.Type().Name(), "Union") {
		if out := m.Call(nil); len(out) == 1 && !out[0].IsNil() {
			checkShape(t, path, out[0])
		}
		return
	}
	meta := v.FieldByName("JSON")
	if !meta.IsValid() {
		return
	}
	if ef := meta.FieldByName("ExtraFields"); ef.IsValid() {
		for _, k := range ef.MapKeys() {
			if !wireOnly[k.String()] {
				t.Errorf("%s (%s): a member openai-go does not know: %v", path, v.Type().Name(), k)
			}
		}
	}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Name == "JSON" || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		fp := path + "." + name
		jf, ok := meta.FieldByName(f.Name).Interface().(respjson.Field)
		if !ok {
			continue
		}
		switch {
		case f.Tag.Get("api") == "required" && jf.Raw() == "":
			t.Errorf("%s: required, absent", fp)
		case jf.Raw() != "" && jf.Raw() != "null" && !jf.Valid():
			t.Errorf("%s: %s is not a %s", fp, jf.Raw(), f.Type)
		}
		if jf.Valid() {
			checkShape(t, fp, v.Field(i))
		}
	}
}
