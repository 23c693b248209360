package strictschema_test

import (
	"fmt"
	"os"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/strictschema"
)

func ExampleNewResponseFormat() {
	schema, _ := jsonvalue.Decode([]byte(`{
		"type": "object",
		"properties": {"name": {"type": "string", "minLength": 1}, "age": {"type": "integer"}},
		"required": ["name"]
	}`), 0)
	rf, losses, err := strictschema.NewResponseFormat("person", schema)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := strictschema.MarshalIndent(rf)
	os.Stdout.Write(b)
	for _, l := range losses {
		fmt.Println("lost:", l)
	}
	// Output:
	// {
	//   "type": "json_schema",
	//   "json_schema": {
	//     "name": "person",
	//     "schema": {
	//       "additionalProperties": false,
	//       "properties": {
	//         "age": {
	//           "type": [
	//             "integer",
	//             "null"
	//           ]
	//         },
	//         "name": {
	//           "type": "string"
	//         }
	//       },
	//       "required": [
	//         "age",
	//         "name"
	//       ],
	//       "type": "object"
	//     },
	//     "strict": true
	//   }
	// }
	// lost: #: additionalProperties: properties not listed are no longer allowed
	// lost: #/properties/name: minLength: the minimum string length is not enforced
}
