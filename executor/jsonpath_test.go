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
		{`$[?@.price < 10]`, "filter selectors"},
		{`$[99999999999999999999]`, "out of range"},
	} {
		_, err := compileJSONPath(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.path, err, tc.want)
		}
	}
}
