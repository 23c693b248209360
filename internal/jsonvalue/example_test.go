package jsonvalue_test

import (
	"errors"
	"fmt"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

func ExampleDecode() {
	v, err := jsonvalue.Decode([]byte(`{"id": 12345678901234567890, "tags": ["a", "\u00e9"]}`), 0)
	fmt.Printf("%#v %v\n", v.(map[string]any)["id"], err)
	fmt.Println(v.(map[string]any)["tags"])

	_, err = jsonvalue.Decode([]byte("{\n  \"a\": [1, 2,]\n}"), 0)
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Offset, se.Line, se.Col, se.Msg)
	}

	_, err = jsonvalue.Decode([]byte(`[[[1]]]`), 2)
	fmt.Println(err, errors.Is(err, jsonvalue.ErrTooDeep))
	// Output:
	// "12345678901234567890" <nil>
	// [a é]
	// 15 2 14 invalid character ']' looking for beginning of value
	// line 1, column 3: JSON nested more than 2 levels deep true
}
