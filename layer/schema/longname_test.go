package schema_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentjudge/judge/layer/schema"
)

// TestRequiredLongNameKeepsDescription: a required property whose name is
// longer than a message quotes (300 characters) is named cut, with "…",
// and its suggestion still gives the property's type and description,
// which are looked up by the whole name.
func TestRequiredLongNameKeepsDescription(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("customer_shipping_address_", 12)[:300]
	sch := `{"type": "object", "required": ["` + name + `"], "properties": {"` + name +
		`": {"type": "string", "description": "the street, city and postcode the parcel goes to"}}}`
	v, err := schema.Compile([]byte(sch), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	issues, err := schema.SlowValidate(v, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(issues) != 1 {
		t.Fatalf("%d issues, want 1: %+v", len(issues), issues)
	}
	is := issues[0]
	if want := "(string): the street, city and postcode the parcel goes to"; !strings.HasSuffix(is.Suggestion, want) {
		t.Errorf("suggestion %q lost the field's type and description %q", is.Suggestion, want)
	}
	for _, text := range []string{is.Message, is.Suggestion} {
		_, quoted, ok := strings.Cut(text, "'")
		quoted, _, ok2 := strings.Cut(quoted, "'")
		if !ok || !ok2 {
			t.Errorf("%q quotes no name", text)
			continue
		}
		if !strings.HasSuffix(quoted, "…") || utf8.RuneCountInString(quoted) > 100 || !strings.HasPrefix(name, strings.TrimSuffix(quoted, "…")) {
			t.Errorf("%q quotes the name as %q, want its first characters cut with … at 100", text, quoted)
		}
	}
}
