package groundeval

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/layer"
)

// BenchSet reads SummEdits files as the input of the grounding
// benchmarks (layer/facts' and bench/run's growth rows): their distinct
// documents, and an output of about 100 claims made of their summaries,
// with its number of claims.
func BenchSet(files []string) (docs []string, output string, claims int, err error) {
	if len(files) == 0 {
		return nil, "", 0, fmt.Errorf("groundeval: no SummEdits file")
	}
	seen := map[string]bool{}
	var sb strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, "", 0, err
		}
		var samples []struct{ Doc, Summary string }
		if err := json.Unmarshal(data, &samples); err != nil {
			return nil, "", 0, fmt.Errorf("%s: %w", f, err)
		}
		for _, s := range samples {
			if !seen[s.Doc] {
				seen[s.Doc] = true
				docs = append(docs, s.Doc)
			}
			if claims < 100 {
				sb.WriteString(s.Summary + "\n")
				claims = len(claim.Extract(sb.String(), "").Claims)
			}
		}
	}
	return docs, sb.String(), claims, nil
}

// Sources returns sources of about n bytes made of docs, repeated under
// new ids when docs are fewer.
func Sources(docs []string, n int) []layer.Source {
	var out []layer.Source
	size := 0
	for i := 0; size < n && len(docs) > 0; i++ {
		d := docs[i%len(docs)]
		if size+len(d) > n {
			d = d[:n-size]
		}
		out = append(out, layer.Source{ID: fmt.Sprintf("doc-%d", i), Content: d})
		size += len(d)
	}
	return out
}
