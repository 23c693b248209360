package mcpstdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// DecodeMessage decodes one JSON-RPC message, as jsonrpc.DecodeMessage does
// (a request when the object has a "method" member, else a response, which
// needs an id), without the SDK's decoder, which allocates a 32 KB buffer
// for every value it reads. Member names match exactly, as in the SDK; of
// duplicate members the last counts. The params, result and error data of
// the message are copies: data may be reused once it returns.
func DecodeMessage(data []byte) (jsonrpc.Message, error) {
	if !json.Valid(data) {
		return nil, errors.New("unmarshaling jsonrpc message: the message is not valid JSON")
	}
	var version, id, method, params, result, rerr []byte
	err := members(data, func(key, val []byte) error {
		switch string(key) {
		case "jsonrpc":
			version = val
		case "id":
			id = val
		case "method":
			method = val
		case "params":
			params = val
		case "result":
			result = val
		case "error":
			rerr = val
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	var v string
	if version != nil {
		if v, err = stringValue(version); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: jsonrpc: %w", err)
		}
	}
	if v != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", v, "2.0")
	}
	mid, err := makeID(id)
	if err != nil {
		return nil, err
	}
	if method != nil {
		m, err := stringValue(method)
		if err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: method: %w", err)
		}
		return &jsonrpc.Request{Method: m, ID: mid, Params: rawCopy(params)}, nil
	}
	if !mid.IsValid() {
		return nil, fmt.Errorf("JSON RPC invalid request: a response without an id")
	}
	resp := &jsonrpc.Response{ID: mid, Result: rawCopy(result)}
	if rerr != nil && !bytes.Equal(rerr, []byte("null")) {
		we, err := wireError(rerr)
		if err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: error: %w", err)
		}
		resp.Error = we
	}
	return resp, nil
}

// rawCopy copies a member's value; an absent one stays nil.
func rawCopy(v []byte) json.RawMessage {
	if v == nil {
		return nil
	}
	return bytes.Clone(v)
}

// makeID is the id of a message as the SDK makes it: a JSON number becomes
// an integer id, a string a string id, null or absence no id.
func makeID(v []byte) (jsonrpc.ID, error) {
	switch {
	case v == nil || string(v) == "null":
		return jsonrpc.MakeID(nil)
	case v[0] == '"':
		s, err := stringValue(v)
		if err != nil {
			return jsonrpc.ID{}, err
		}
		return jsonrpc.MakeID(s)
	case v[0] == '-' || '0' <= v[0] && v[0] <= '9':
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return jsonrpc.ID{}, fmt.Errorf("JSON RPC parse error: id %s: %w", v, err)
		}
		return jsonrpc.MakeID(f)
	}
	return jsonrpc.ID{}, fmt.Errorf("JSON RPC parse error: invalid ID %s", v)
}

// wireError decodes the error member of a response.
func wireError(v []byte) (*jsonrpc.Error, error) {
	if v[0] != '{' {
		return nil, fmt.Errorf("%.40s is not an object", v)
	}
	we := &jsonrpc.Error{}
	err := members(v, func(key, val []byte) error {
		var err error
		switch string(key) {
		case "code":
			we.Code, err = strconv.ParseInt(string(val), 10, 64)
			if err != nil && val[0] != 'n' {
				// A code such as 1.0 or 1e3, which JSON allows.
				var f float64
				if f, err = strconv.ParseFloat(string(val), 64); err == nil && f == float64(int64(f)) {
					we.Code = int64(f)
				} else {
					err = fmt.Errorf("code %.40s is not an integer", val)
				}
			} else if err != nil {
				we.Code, err = 0, nil
			}
		case "message":
			if string(val) != "null" {
				we.Message, err = stringValue(val)
			}
		case "data":
			we.Data = rawCopy(val)
		}
		return err
	})
	return we, err
}

// stringValue is the string of a JSON string value, decoded as
// encoding/json decodes it (lex.ReadString).
func stringValue(v []byte) (string, error) {
	if len(v) < 2 || v[0] != '"' {
		return "", fmt.Errorf("%.40s is not a string", v)
	}
	var buf []byte
	text, _, _, code := lex.ReadString(v, 0, &buf)
	if code != lex.OK {
		return "", fmt.Errorf("%.40s is not a JSON string", v)
	}
	return string(text), nil
}

// members calls fn with the name (unescaped) and the value's bytes of each
// member of obj, a valid JSON object (json.Valid), in order.
func members(obj []byte, fn func(key, val []byte) error) error {
	i := lex.SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return errors.New("the message is not a JSON object")
	}
	i = lex.SkipSpace(obj, i+1)
	if obj[i] == '}' {
		return nil
	}
	var buf []byte
	for {
		key, end, _, code := lex.ReadString(obj, i, &buf)
		if code != lex.OK {
			return errors.New("a member name is not a JSON string")
		}
		i = lex.SkipSpace(obj, end)
		i = lex.SkipSpace(obj, i+1) // the colon
		end = valueEnd(obj, i)
		if err := fn(key, obj[i:end]); err != nil {
			return err
		}
		i = lex.SkipSpace(obj, end)
		if obj[i] == '}' {
			return nil
		}
		i = lex.SkipSpace(obj, i+1) // the comma
	}
}

// stringEnd returns the offset after the string starting at d[i], in
// valid JSON.
func stringEnd(d []byte, i int) int {
	end, _, _ := lex.SkipString(d, i)
	return end
}

// valueEnd returns the offset after the value starting at d[i], in valid
// JSON: its tokens are read by package lex, its brackets counted here.
func valueEnd(d []byte, i int) int {
	switch c := d[i]; {
	case c == '"':
		return stringEnd(d, i)
	case c == '{' || c == '[':
		depth := 0
		for ; ; i++ {
			switch d[i] {
			case '"':
				i = stringEnd(d, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
	case c == '-' || lex.IsDigit(c):
		end, _, _ := lex.ScanNumber(d, i)
		return end
	}
	return i + len(lex.Literal(d[i]))
}
