package trace_test

import (
	"context"
	"testing"

	"github.com/agentjudge/judge/trace"
)

// FuzzDecode feeds Decode arbitrary input: it returns conversations or a
// *DecodeError, never panics; what it returns can be checked.
func FuzzDecode(f *testing.F) {
	one := conv(user("hi"), call("c1", "get_order", `{"order_id": "A1"}`), toolMsg("c1", "Error: no"))
	for _, s := range []string{one, "[" + one + "]", one + "\n" + one, `{"task_id": 1, "reward": 1, "traj": ` + one + `}`,
		`[{"role": "user", "content": [{"type": "text", "text": "x"}]}]`, `{"messages": [{"role": "tool", "content": null}]}`, "", "[", `"x"`} {
		f.Add([]byte(s))
	}
	ch := checker(f, rules)
	f.Fuzz(func(t *testing.T, data []byte) {
		convs, err := trace.Decode(data)
		if err != nil {
			if err.Error() == "" {
				t.Error("empty error message")
			}
			return
		}
		for _, c := range convs {
			if _, err := ch.Check(context.Background(), c); err != nil {
				t.Errorf("Check of a decoded conversation: %v", err)
			}
		}
	})
}
