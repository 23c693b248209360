package executor

import (
	"encoding/json"
	"strings"
	"testing"
)

const jpDoc = `{"store": {"book": [
  {"category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95},
  {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99},
  {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99},
  {"category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99}
], "bicycle": {"color": "red", "price": 399}}, "a b": {"x'y": 1}}`

// TestJSONPathEval follows the examples of RFC 9535 (sections 1.5 and
// 2.3) that use no filter.
func TestJSONPathEval(t *testing.T) {
	t.Parallel()
	doc, ok := jsonValue([]byte(jpDoc))
	if !ok {
		t.Fatal("bad document")
	}
	tests := []struct{ path, want string }{
		{`$.store.bicycle.color`, `"red"`},
		{`$.store.book[*].author`, `["Nigel Rees","Evelyn Waugh","Herman Melville","J. R. R. Tolkien"]`},
		{`$..author`, `["Nigel Rees","Evelyn Waugh","Herman Melville","J. R. R. Tolkien"]`},
		{`$.store.*`, `[{"color":"red","price":399},[{"author":"Nigel Rees","category":"reference","price":8.95,"title":"Sayings of the Century"},{"author":"Evelyn Waugh","category":"fiction","price":12.99,"title":"Sword of Honour"},{"author":"Herman Melville","category":"fiction","isbn":"0-553-21311-3","price":8.99,"title":"Moby Dick"},{"author":"J. R. R. Tolkien","category":"fiction","isbn":"0-395-19395-8","price":22.99,"title":"The Lord of the Rings"}]]`},
		{`$.store..price`, `[399,8.95,12.99,8.99,22.99]`},
		{`$..book[2].title`, `["Moby Dick"]`},
		{`$.store.book[2].title`, `"Moby Dick"`},
		{`$.store.book[-1].title`, `"The Lord of the Rings"`},
		{`$..book[0,1].title`, `["Sayings of the Century","Sword of Honour"]`},
		{`$..book[:2].title`, `["Sayings of the Century","Sword of Honour"]`},
		{`$.store.book[1:3].price`, `[12.99,8.99]`},
		{`$.store.book[::-1].price`, `[22.99,8.99,12.99,8.95]`},
		{`$.store.book[5:1:-2].price`, `[22.99]`},
		{`$.store.book[1:3:0].price`, `[]`},
		{`$..isbn`, `["0-553-21311-3","0-395-19395-8"]`},
		{`$['a b']["x'y"]`, `1`},
		{`$['a\u0020b']['x\'y']`, `1`},
		{`$.nothing.here`, `null`},
		{`$.store.book[99]`, `null`},
		{`$`, jpCanonical(t, jpDoc)},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			p, err := compileJSONPath(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(p.eval(doc))
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func jpCanonical(t *testing.T, s string) string {
	v, _ := jsonValue([]byte(s))
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestJSONPathErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ path, want string }{
		{`store`, "starts with"},
		{`$.`, "member name"},
		{`$[`, "never closed"},
		{`$[?@.* == 1]`, "singular query"},
		{`$[?length(@)]`, "gives a value"},
		{`$[?foo(@)]`, "unknown function foo()"},
		{`$[?match(@.a, 'x') == true]`, "use it alone as a test"},
		{`$[?count(1) > 0]`, "takes a query"},
		{`$[?length(@.a, @.b) > 0]`, "takes 1 argument"},
		{`$[?match(@.a, '(')]`, "does not compile"},
		{`$[?1]`, "a literal alone is not a test"},
		{`$[99999999999999999999]`, "out of range"},
	} {
		_, err := compileJSONPath(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.path, err, tc.want)
		}
	}
}

// rfcFilterDoc is the document of RFC 9535's filter examples (section
// 2.3.5.3).
const rfcFilterDoc = `{"a": [3, 5, 1, 2, 4, 6, {"b": "j"}, {"b": "k"}, {"b": {}}, {"b": "kilo"}],
  "o": {"p": 1, "q": 2, "r": 3, "s": 5, "t": {"u": 6}}, "e": "f"}`

// TestJSONPathFilter follows the filter examples of RFC 9535 (section
// 2.3.5.3, object members in sorted order as elsewhere) and the functions
// of section 2.4.
func TestJSONPathFilter(t *testing.T) {
	t.Parallel()
	tests := []struct{ doc, path, want string }{
		{rfcFilterDoc, `$.a[?@.b == 'kilo']`, `[{"b":"kilo"}]`},
		{rfcFilterDoc, `$.a[?(@.b == 'kilo')]`, `[{"b":"kilo"}]`},
		{rfcFilterDoc, `$.a[?@>3.5]`, `[5,4,6]`},
		{rfcFilterDoc, `$.a[?@.b]`, `[{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]`},
		{rfcFilterDoc, `$[?@.*]`, `[[3,5,1,2,4,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}],{"p":1,"q":2,"r":3,"s":5,"t":{"u":6}}]`},
		{rfcFilterDoc, `$[?@[?@.b]]`, `[[3,5,1,2,4,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]]`},
		{rfcFilterDoc, `$.o[?@<3, ?@<3]`, `[1,2,1,2]`},
		{rfcFilterDoc, `$.a[?@<2 || @.b == "k"]`, `[1,{"b":"k"}]`},
		{rfcFilterDoc, `$.a[?match(@.b, "[jk]")]`, `[{"b":"j"},{"b":"k"}]`},
		{rfcFilterDoc, `$.a[?search(@.b, "[jk]")]`, `[{"b":"j"},{"b":"k"},{"b":"kilo"}]`},
		{rfcFilterDoc, `$.o[?@>1 && @<4]`, `[2,3]`},
		{rfcFilterDoc, `$.o[?@.u || @.x]`, `[{"u":6}]`},
		{rfcFilterDoc, `$.a[?@.b == $.x]`, `[3,5,1,2,4,6]`},
		{rfcFilterDoc, `$.a[?@ == @]`, `[3,5,1,2,4,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]`},
		{rfcFilterDoc, `$.a[?!@.b]`, `[3,5,1,2,4,6]`},
		{rfcFilterDoc, `$.a[?!(@ > 2 && @ < 6)]`, `[1,2,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]`},
		{rfcFilterDoc, `$.a[?length(@.b) >= 2]`, `[{"b":"kilo"}]`},
		{rfcFilterDoc, `$[?count(@.*) > 4]`, `[[3,5,1,2,4,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}],{"p":1,"q":2,"r":3,"s":5,"t":{"u":6}}]`},
		{rfcFilterDoc, `$.a[?value(@..b) == 'k']`, `[{"b":"k"}]`},
		{rfcFilterDoc, `$.a[?@.b > 'j']`, `[{"b":"k"},{"b":"kilo"}]`},
		{rfcFilterDoc, `$.a[?@.b <= 'k']`, `[{"b":"j"},{"b":"k"}]`},
		{rfcFilterDoc, `$.a[?@ <= 'z']`, `[]`}, // numbers and objects are not ordered against a string
		{jpDoc, `$..book[?@.isbn].title`, `["Moby Dick","The Lord of the Rings"]`},
		{jpDoc, `$..book[?@.price<10].title`, `["Sayings of the Century","Moby Dick"]`},
		{jpDoc, `$.store.book[?@.price < $.store.bicycle.price && @.category == 'fiction'].author`, `["Evelyn Waugh","Herman Melville","J. R. R. Tolkien"]`},
		{`{"events": [{"id": 1, "state": "open"}, {"id": 2, "state": "closed"}]}`, `$.events[?@.state == 'open'].id`, `[1]`},
		{`{"xs": ["a\r", "ab"]}`, `$.xs[?match(@, 'a.')]`, `["ab"]`}, // I-Regexp's . matches no \r
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			doc, ok := jsonValue([]byte(tc.doc))
			if !ok {
				t.Fatal("bad document")
			}
			p, err := compileJSONPath(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(p.eval(doc))
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestJSONPathFilterWork: a filter whose every test runs a descendant
// query over the whole document is stopped by the work budget with a
// message, not left to run quadratically.
func TestJSONPathFilterWork(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	sb.WriteString(`[`)
	for i := range 3000 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"a": [1, 2, 3, 4, 5, 6, 7, 8]}`)
	}
	sb.WriteString(`]`)
	doc, _ := jsonValue([]byte(sb.String()))
	p, err := compileJSONPath(`$[?count($..*) > 0 && count($..*) > 1]`)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := p.eval(doc).(string); !strings.Contains(got, "takes more than") {
		t.Errorf("got %.200v, want the work limit's message", p.eval(doc))
	}
}
