package server

import (
	"bytes"
	"strconv"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// appendResult appends r as result.WriteJSON writes it (encoding/json,
// indented by two spaces, no HTML escaping, a final newline), byte for
// byte, without reflection: the answer of every POST /validate. It returns
// false for a result encoding/json would refuse (a NaN or infinite
// figure), which the caller then leaves to result.WriteJSON for its error.
func appendResult(b []byte, r *result.ValidationResult) ([]byte, bool) {
	var ok bool
	b = append(b, "{\n  \"valid\": "...)
	b = strconv.AppendBool(b, r.Valid)
	b = append(b, ",\n  \"confidence\": "...)
	if b, ok = appendFloat(b, r.Confidence); !ok {
		return b, false
	}
	b = append(b, ",\n  \"issues\": "...)
	b = appendIssues(b, r.Issues)
	b = append(b, ",\n  \"passed_criteria\": "...)
	b = appendStrings(b, r.PassedCriteria, "  ")
	b = append(b, ",\n  \"failed_criteria\": "...)
	b = appendStrings(b, r.FailedCriteria, "  ")
	b = append(b, ",\n  \"quality_score\": "...)
	if b, ok = appendFloat(b, r.QualityScore); !ok {
		return b, false
	}
	m := &r.Metadata
	b = append(b, ",\n  \"metadata\": {\n    \"validation_types_run\": "...)
	b = appendStrings(b, m.ValidationTypesRun, "    ")
	b = append(b, ",\n    \"total_issues\": "...)
	b = strconv.AppendInt(b, int64(m.TotalIssues), 10)
	b = append(b, ",\n    \"error_count\": "...)
	b = strconv.AppendInt(b, int64(m.ErrorCount), 10)
	b = append(b, ",\n    \"warning_count\": "...)
	b = strconv.AppendInt(b, int64(m.WarningCount), 10)
	b = append(b, ",\n    \"info_count\": "...)
	b = strconv.AppendInt(b, int64(m.InfoCount), 10)
	b = append(b, ",\n    \"duration_ms\": "...)
	if b, ok = appendFloat(b, m.DurationMS); !ok {
		return b, false
	}
	b = append(b, ",\n    \"model\": "...)
	b = jsonvalue.AppendString(b, m.Model)
	if u := m.TokenUsage; u != nil {
		b = append(b, ",\n    \"token_usage\": {\n      \"prompt_tokens\": "...)
		b = strconv.AppendInt(b, u.PromptTokens, 10)
		b = append(b, ",\n      \"completion_tokens\": "...)
		b = strconv.AppendInt(b, u.CompletionTokens, 10)
		b = append(b, ",\n      \"total_tokens\": "...)
		b = strconv.AppendInt(b, u.TotalTokens, 10)
		b = append(b, "\n    }"...)
	}
	if len(m.QualityDimensions) > 0 {
		b = append(b, ",\n    \"quality_dimensions\": {"...)
		var small [8]string
		for i, k := range jsonvalue.SortedKeys(small[:0], m.QualityDimensions) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n      "...)
			b = jsonvalue.AppendString(b, k)
			b = append(b, ": "...)
			if b, ok = appendFloat(b, m.QualityDimensions[k]); !ok {
				return b, false
			}
		}
		b = append(b, "\n    }"...)
	}
	return append(b, "\n  }\n}\n"...), true
}

func appendFloat(b []byte, f float64) ([]byte, bool) {
	out, err := jsonvalue.AppendFloat(b, f)
	if err != nil {
		return b, false
	}
	return out, true
}

// appendStrings appends ss as an array of strings whose opening bracket
// is at indent: null when nil, as encoding/json writes a nil slice.
func appendStrings(b []byte, ss []string, indent string) []byte {
	switch {
	case ss == nil:
		return append(b, "null"...)
	case len(ss) == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '\n'), indent...), "  "...)
		b = jsonvalue.AppendString(b, s)
	}
	return append(append(append(b, '\n'), indent...), ']')
}

// appendIssues appends the issues array of a result, at its indent.
func appendIssues(b []byte, issues []result.Issue) []byte {
	switch {
	case issues == nil:
		return append(b, "null"...)
	case len(issues) == 0:
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i := range issues {
		is := &issues[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {\n      \"severity\": "...)
		b = jsonvalue.AppendString(b, string(is.Severity))
		b = append(b, ",\n      \"type\": "...)
		b = jsonvalue.AppendString(b, string(is.Type))
		b = append(b, ",\n      \"message\": "...)
		b = jsonvalue.AppendString(b, is.Message)
		for _, f := range [...]struct{ name, v string }{{"location", is.Location}, {"suggestion", is.Suggestion}, {"rule", is.Rule}} {
			if f.v != "" {
				b = append(b, ",\n      \""...)
				b = append(b, f.name...)
				b = append(b, "\": "...)
				b = jsonvalue.AppendString(b, f.v)
			}
		}
		b = append(b, "\n    }"...)
	}
	return append(b, "\n  ]"...)
}

// encodeResult appends the JSON answer of r to dst: appendResult's
// bytes, or result.WriteJSON's where appendResult declines.
func encodeResult(dst []byte, r *result.ValidationResult) ([]byte, error) {
	if b, ok := appendResult(dst, r); ok {
		return b, nil
	}
	var buf bytes.Buffer
	if err := result.WriteJSON(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// maxPooledBuf is the largest buffer the server keeps for the next
// request; a larger one is left to the collector.
const maxPooledBuf = 64 << 10

// buf returns an empty buffer for a request body or an answer: one a
// previous request used when there is one.
func (s *Server) buf() *[]byte {
	if bp, ok := s.bufs.Get().(*[]byte); ok {
		return bp
	}
	b := make([]byte, 0, 2048)
	return &b
}

// keepBuf gives back bp for the next request, as b (bp's array, or the
// one that grew from it) once the caller no longer reads it: an answer
// net/http has copied into its own buffer or onto the connection, a body
// decoded into a request that holds copies.
func (s *Server) keepBuf(bp *[]byte, b []byte) {
	if cap(b) > maxPooledBuf {
		return
	}
	*bp = b[:0]
	s.bufs.Put(bp)
}
