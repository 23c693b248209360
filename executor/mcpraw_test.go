package executor

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// readTapped reads body through a tapBody waiting for the id "judge-1", in
// reads of at most chunk bytes, and returns what the SDK read and the
// answer delivered (ok false when none was).
func readTapped(body []byte, sse bool, chunk int) (read []byte, a rawAnswer, ok bool) {
	w := &rawWaiter{id: []byte(`"judge-1"`), ch: make(chan rawAnswer, 1)}
	b := &tapBody{ReadCloser: io.NopCloser(bytes.NewReader(body)), w: w, sse: sse, max: 1 << 20}
	buf := make([]byte, max(chunk, 1))
	for {
		n, err := b.Read(buf)
		read = append(read, buf[:n]...)
		if err != nil {
			break
		}
	}
	_ = b.Close()
	select {
	case a = <-w.ch:
		return read, a, true
	default:
		return read, a, false
	}
}

func TestTapBody(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		sse        bool
		want       string // the result delivered; "" an error
		wantErr    string // the error delivered
		none       bool   // nothing delivered: the SDK resumes the stream
	}{
		{name: "the response after a notification, split over lines",
			body: "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"judge-1\"}}\n\n" +
				"data: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":\"judge-1\",\"result\":{\"content\":[]}}\r\n\r\n",
			sse: true, want: `{"content":[]}`},
		{name: "another id first", sse: true,
			body: "data: {\"jsonrpc\":\"2.0\",\"id\":\"judge-10\",\"result\":{}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"judge-1\",\"result\":{\"a\":1}}\n\n",
			want: `{"a":1}`},
		{name: "an error response", sse: true,
			body:    "data: {\"jsonrpc\":\"2.0\",\"id\":\"judge-1\",\"error\":{\"code\":-32602,\"message\":\"bad\"}}\n\n",
			wantErr: "bad"},
		{name: "ended without the response", sse: true, body: "data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n",
			wantErr: "the server ended the response without answering the request"},
		{name: "ended early with event ids: the SDK resumes", sse: true, body: "id: 7\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n", none: true},
		{name: "a JSON body", body: `{"jsonrpc":"2.0","id":"judge-1","result":{"tools":[]}}`, want: `{"tools":[]}`},
		{name: "a JSON batch", body: `[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":"judge-1","result":{"b":2}}]`, want: `{"b":2}`},
	} {
		for _, chunk := range []int{1, 7, 4096} {
			read, a, ok := readTapped([]byte(tc.body), tc.sse, chunk)
			if string(read) != tc.body {
				t.Errorf("%s (reads of %d): the SDK read %q, not the body", tc.name, chunk, read)
			}
			switch {
			case tc.none:
				if ok {
					t.Errorf("%s (reads of %d): delivered %+v, want nothing", tc.name, chunk, a)
				}
			case !ok:
				t.Errorf("%s (reads of %d): nothing delivered", tc.name, chunk)
			case tc.want != "" && string(a.result) != tc.want:
				t.Errorf("%s (reads of %d): result %s (err %v), want %s", tc.name, chunk, a.result, a.err, tc.want)
			case tc.wantErr != "" && (a.err == nil || a.err.Error() != tc.wantErr):
				t.Errorf("%s (reads of %d): err %v, want %q", tc.name, chunk, a.err, tc.wantErr)
			}
			var je *jsonrpc.Error
			if tc.name == "an error response" && ok && !errors.As(a.err, &je) {
				t.Errorf("an error response: %T, want a *jsonrpc.Error", a.err)
			}
		}
	}
}

// FuzzTapBody: any response body, read in any chunks, reaches the SDK
// whole, and the tap delivers at most one answer: a JSON result, or an
// error.
func FuzzTapBody(f *testing.F) {
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\"id\":\"judge-1\",\"result\":{}}\n\n"), true, uint8(3))
	f.Add([]byte("id: 1\ndata: x\n\ndata: {\"id\":\"judge-1\"}\n\n"), true, uint8(1))
	f.Add([]byte(`[{"id":"judge-1","result":[1]}]`), false, uint8(200))
	f.Add([]byte("data: \"judge-1\"\r\n\r\n:comment\n"), true, uint8(5))
	f.Fuzz(func(t *testing.T, body []byte, sse bool, chunk uint8) {
		read, a, ok := readTapped(body, sse, int(chunk))
		if !bytes.Equal(read, body) {
			t.Fatalf("the SDK read %q of %q", read, body)
		}
		if ok && a.err == nil && !json.Valid(a.result) {
			t.Fatalf("delivered a result that is not JSON: %q", a.result)
		}
	})
}
