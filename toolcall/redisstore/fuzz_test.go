package redisstore

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeSession feeds any stored value to the session decoder, as a
// corrupt, foreign or hostile value in Redis would reach it: it is refused
// with an error naming the key, or decoded into a session that encodes
// and decodes back to itself, so that an update keeps what it read.
func FuzzDecodeSession(f *testing.F) {
	for _, s := range []string{
		`{"repair_attempts":{"search":2},"last_call":"a1b2","same_call":3,"last_error":"e","same_error":1,"empty":2,"last_result":"r","same_result":1,"calls":9,"escalated":true,"stopped":"loop"}`,
		`{"calls":0}`, `{}`, `null`, `[]`, `"x"`, ``, `{"calls":1e400}`, `{"calls":-1,"same_call":9223372036854775807}`,
		`{"repair_attempts":{"":-5,"\u0000":1},"calls":1,"calls":2}`, `{"stopped":"\ud800"}`, `{"calls":1} trailing`,
	} {
		f.Add([]byte(s))
	}
	const key = "judge:session:s1"
	f.Fuzz(func(t *testing.T, data []byte) {
		sess, err := decodeSession(key, data)
		if err != nil {
			if !strings.Contains(err.Error(), key) {
				t.Fatalf("error %q does not name the key", err)
			}
			return
		}
		enc, err := json.Marshal(&sess)
		if err != nil {
			t.Fatalf("a decoded session does not encode: %v", err)
		}
		again, err := decodeSession(key, enc)
		if err != nil {
			t.Fatalf("the session's own encoding %s does not decode: %v", enc, err)
		}
		if len(again.RepairAttempts) == 0 && len(sess.RepairAttempts) == 0 {
			again.RepairAttempts = sess.RepairAttempts
		}
		if !reflect.DeepEqual(again, sess) {
			t.Fatalf("round trip changed the session:\n%+v\n%+v", sess, again)
		}
	})
}
