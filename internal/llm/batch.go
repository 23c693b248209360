package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// batchPlan groups the items of the given sizes into batches of
// consecutive items that fit in one prompt: at most MaxBatch items, and
// fixed plus their sizes at most MaxPromptChars. An item too large for a
// prompt of its own is left out and reported to tooLarge.
func batchPlan(sizes []int, fixed int, tooLarge func(i int)) [][]int {
	var batches [][]int
	var cur []int
	size := fixed
	for i, n := range sizes {
		if fixed+n > MaxPromptChars {
			tooLarge(i)
			continue
		}
		if len(cur) == MaxBatch || size+n > MaxPromptChars {
			batches = append(batches, cur)
			cur, size = nil, fixed
		}
		cur = append(cur, i)
		size += n
	}
	if len(cur) > 0 {
		batches = append(batches, cur)
	}
	return batches
}

// askBatches asks about each batch of items in parallel with ask, at most
// limit batches at once, which returns one verdict per item of its batch in
// order, and hands every item's verdict or error to set, one call at a
// time. It returns the tokens spent.
func askBatches[T, V any](items []T, batches [][]int, limit int, ask func([]T) ([]V, Usage, error), set func(i int, v *V, err error)) Usage {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		usage Usage
	)
	slots := make(chan struct{}, max(limit, 1))
	for _, b := range batches {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			batch := make([]T, len(b))
			for j, i := range b {
				batch[j] = items[i]
			}
			vs, u, err := ask(batch)
			mu.Lock()
			defer mu.Unlock()
			usage = usage.Add(u)
			for j, i := range b {
				if err != nil {
					set(i, nil, err)
				} else {
					set(i, &vs[j], nil)
				}
			}
		})
	}
	wg.Wait()
	return usage
}

// askVerdicts asks one batch's question and reads the answer with read,
// which also checks it (a malformed answer is retried once by Ask). An
// answer from the cache is read again, and markCached marks each of its
// verdicts. A failed call still returns the tokens it spent.
func askVerdicts[V any](ctx context.Context, c *Client, msgs []Message, schema *Schema, read func(any) ([]V, error), markCached func(*V)) ([]V, Usage, error) {
	var vs []V
	check := func(v any) error {
		var err error
		vs, err = read(v)
		return err
	}
	a, err := c.Ask(ctx, Question{Messages: msgs, Schema: schema, Check: check})
	if err != nil {
		var u Usage
		if me := (*MalformedError)(nil); errors.As(err, &me) {
			u = me.Usage
		} else if ce := (*CallError)(nil); errors.As(err, &ce) {
			u = ce.Usage
		}
		return nil, u, err
	}
	if a.Cached {
		if vs, err = read(a.Value); err != nil {
			return nil, Usage{}, err
		}
		for i := range vs {
			markCached(&vs[i])
		}
	}
	return vs, a.Usage, nil
}

// readVerdicts reads the "verdicts" list of the answer v into one verdict
// per asked id, in ids' order, making each with read from its object (i is
// its index in ids). An answer that misses an id, names one not asked, or
// names one twice is an error; noun says what an id stands for in errors.
func readVerdicts[V any](v any, ids []int, noun string, read func(m map[string]any, id, i int) (V, error)) ([]V, error) {
	obj, _ := v.(map[string]any)
	list, _ := obj["verdicts"].([]any)
	pos := make(map[int]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	out := make([]V, len(ids))
	seen := make([]bool, len(ids))
	for _, item := range list {
		m, _ := item.(map[string]any)
		num, _ := m["id"].(json.Number)
		id, err := num.Int64()
		if err != nil {
			return nil, fmt.Errorf("verdict id %v is not an integer", m["id"])
		}
		i, ok := pos[int(id)]
		switch {
		case !ok:
			return nil, fmt.Errorf("the answer has a verdict for %s %d, which was not asked", noun, id)
		case seen[i]:
			return nil, fmt.Errorf("the answer has two verdicts for %s %d", noun, id)
		}
		seen[i] = true
		if out[i], err = read(m, int(id), i); err != nil {
			return nil, err
		}
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("the answer has no verdict for %s %d", noun, ids[i])
		}
	}
	return out, nil
}
