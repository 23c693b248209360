package toolcall

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/agentjudge/judge/result"
)

// fullCoverage matches a goal that asks for everything: all, every,
// entire, everyone, each, the whole, the complete or full list.
var fullCoverage = regexp.MustCompile(`(?i)\b(all|every|everything|everyone|everybody|entire|each|whole|complete list|full list|exhaustive)\b`)

// WantsAll reports whether a goal asks for full coverage: all, every,
// entire, everyone, each, whole, a complete or full list.
func WantsAll(goal string) bool { return fullCoverage.MatchString(goal) }

// isLimitParam reports whether a parameter bounds how many results come
// back.
func isLimitParam(name string) bool {
	switch strings.ToLower(strings.ReplaceAll(name, "-", "_")) {
	case "limit", "max_results", "maxresults", "page_size", "pagesize", "per_page", "perpage", "top_k", "topk", "count",
		"max", "max_items", "maxitems", "max_count", "num_results", "numresults", "n_results", "size", "first", "k", "top", "results_per_page":
		return true
	}
	return false
}

// liftLimits raises, for a goal that asks for everything, the limit-like
// parameters of args to their schema's maximum, or drops them when the
// schema has none and they are optional (the tool's own default or no
// limit applies). Each change is an info issue.
func (ct *Contract) liftLimits(args map[string]any, goal string) (map[string]any, []result.Issue) {
	if !WantsAll(goal) {
		return args, nil
	}
	var issues []result.Issue
	out, copied := args, false
	cp := func() {
		if !copied {
			out, copied = maps.Clone(args), true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if !isLimitParam(k) {
			continue
		}
		ps := asMap(ct.props[k])
		if ps == nil {
			continue
		}
		why := fmt.Sprintf("the goal asks for %s", strings.ToLower(fullCoverage.FindString(goal)))
		if mx, ok := ps["maximum"].(json.Number); ok {
			if shortJSON(args[k]) == string(mx) {
				continue
			}
			cp()
			out[k] = mx
			issues = append(issues, result.Issue{Severity: result.Info, Type: result.ArgumentNormalized, Location: locationOf(k),
				Message:    fmt.Sprintf("Parameter '%s' was raised from %s to its maximum %s: %s, and a limit would cut the answer short", k, shortJSON(args[k]), mx, why),
				Suggestion: fmt.Sprintf("Page through the results if '%s' at its maximum still leaves some out", k),
				Rule:       "toolcall.coverage"})
			continue
		}
		if slices.Contains(ct.required, k) {
			continue
		}
		cp()
		delete(out, k)
		issues = append(issues, result.Issue{Severity: result.Info, Type: result.ArgumentNormalized, Location: locationOf(k),
			Message:    fmt.Sprintf("Parameter '%s' (%s) was dropped: %s, and the schema gives it no maximum to raise it to", k, shortJSON(args[k]), why),
			Suggestion: fmt.Sprintf("Leave '%s' out when every result is wanted, and page through them", k),
			Rule:       "toolcall.coverage"})
	}
	return out, issues
}

// truncation is what says a result is one page of more.
type truncation struct {
	why    string // "has_more is true", "total 42 above the 10 items returned"
	cursor string // the next cursor or page token, if any
	page   int64  // the next page number, if the result gives one
	items  int    // items returned, for an offset
}

// cursorKeys name a result's next cursor or page token.
var cursorKeys = []string{"next_cursor", "nextCursor", "next_page_token", "nextPageToken", "next_token", "nextToken", "cursor", "endCursor", "end_cursor", "continuation_token", "continuationToken", "next"}

// truncated finds the signs that a payload is one page of more: has_more
// (hasMore, hasNextPage, incomplete_results, truncated) true, a next
// cursor or page token, or a total above the items returned. It looks at
// the payload and at the objects directly inside it (pagination, meta,
// pageInfo).
func truncated(payload any) (truncation, bool) {
	root, ok := payload.(map[string]any)
	if !ok {
		return truncation{}, false
	}
	objs := []map[string]any{root}
	for _, k := range slices.Sorted(maps.Keys(root)) {
		if m, ok := root[k].(map[string]any); ok {
			objs = append(objs, m)
		}
	}
	var t truncation
	// The items returned: the longest list at the root or one level in.
	for _, o := range objs {
		for _, v := range o {
			if l, ok := v.([]any); ok && len(l) > t.items {
				t.items = len(l)
			}
		}
	}
	more := false
	for _, o := range objs {
		for _, k := range []string{"has_more", "hasMore", "has_next_page", "hasNextPage", "more", "incomplete_results", "truncated", "is_truncated", "isTruncated"} {
			if b, ok := o[k].(bool); ok && b {
				more, t.why = true, k+" is true"
			}
		}
		for _, k := range cursorKeys {
			if s, ok := o[k].(string); ok && strings.TrimSpace(s) != "" && t.cursor == "" {
				if k == "next" && (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")) {
					continue // a next URL is not a token to pass back
				}
				t.cursor = s
				if t.why == "" {
					t.why = fmt.Sprintf("%s is %s", k, shortJSON(s))
				}
			}
		}
		for _, k := range []string{"next_page", "nextPage"} {
			if n, ok := intOf(o[k]); ok && n > 0 {
				t.page = n
				if t.why == "" {
					t.why = fmt.Sprintf("%s is %d", k, n)
				}
			}
		}
		for _, k := range []string{"total", "total_count", "totalCount", "total_results", "totalResults", "total_items", "totalItems"} {
			if n, ok := intOf(o[k]); ok && n > int64(t.items) && t.items > 0 {
				more = true
				if t.why == "" {
					t.why = fmt.Sprintf("%s is %d, above the %d items returned", k, n, t.items)
				}
			}
		}
	}
	// A cursor alone, beside has_more false, is not more.
	for _, o := range objs {
		for _, k := range []string{"has_more", "hasMore", "has_next_page", "hasNextPage"} {
			if b, ok := o[k].(bool); ok && !b {
				return truncation{}, false
			}
		}
	}
	if !more && t.cursor == "" && t.page == 0 {
		return truncation{}, false
	}
	return t, true
}

// cursorParams name a call's cursor or page-token parameter.
var cursorParams = []string{"cursor", "after", "page_token", "pageToken", "next_token", "nextToken", "next_cursor", "starting_after", "continuation_token", "continuationToken", "token", "marker"}

// nextPage builds the call that fetches the next page: the same tool and
// arguments with the cursor, the page or the offset moved on. needs names
// what could not be filled when the contract has no parameter for it.
func (ct *Contract) nextPage(args map[string]any, t truncation) (next map[string]any, needs []string) {
	next = maps.Clone(args)
	if next == nil {
		next = map[string]any{}
	}
	if t.cursor != "" {
		for _, p := range cursorParams {
			if _, ok := ct.props[p]; ok {
				next[p] = t.cursor
				return next, nil
			}
		}
	}
	if _, ok := ct.props["page"]; ok {
		page := t.page
		if page == 0 {
			cur, ok := intOf(args["page"])
			if !ok {
				cur = 1
			}
			page = cur + 1
		}
		next["page"] = json.Number(fmt.Sprint(page))
		return next, nil
	}
	for _, p := range []string{"offset", "skip", "start"} {
		if _, ok := ct.props[p]; ok && t.items > 0 {
			cur, _ := intOf(args[p])
			next[p] = json.Number(fmt.Sprint(cur + int64(t.items)))
			return next, nil
		}
	}
	if t.cursor != "" {
		return next, []string{fmt.Sprintf("a parameter to pass the cursor %s", shortJSON(t.cursor))}
	}
	return next, []string{"a page, cursor or offset parameter"}
}
