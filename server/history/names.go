package history

import "sync"

// Other is the name under which the events of names past a [Names]
// limit are counted.
const Other = "other"

// Names tells apart the first limit names it is given, in the order it
// sees them, and groups every later one as [Other]: a bounded label set
// for names that come from requests (tool names), so that neither the
// metrics nor the history grows with them. It is safe for concurrent use.
type Names struct {
	mu    sync.RWMutex
	limit int
	index map[string]int
	names []string
}

// NewNames returns a Names that tells apart limit names.
func NewNames(limit int) *Names {
	return &Names{limit: limit, index: make(map[string]int, limit), names: make([]string, 0, limit)}
}

// Index returns the index of name, 0 to limit-1, taking the next free one
// for a new name; limit (the index of Other) once all are taken.
func (n *Names) Index(name string) int {
	n.mu.RLock()
	i, ok := n.index[name]
	full := len(n.names) >= n.limit
	n.mu.RUnlock()
	if ok {
		return i
	}
	if full || name == Other {
		return n.limit
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if i, ok := n.index[name]; ok {
		return i
	}
	if len(n.names) >= n.limit {
		return n.limit
	}
	i = len(n.names)
	n.index[name] = i
	n.names = append(n.names, name)
	return i
}

// Label returns name when it is told apart, Other otherwise (taking a free
// index for a new name).
func (n *Names) Label(name string) string {
	return n.Name(n.Index(name))
}

// Name returns the name of index i: Other for limit and beyond.
func (n *Names) Name(i int) string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	if i < 0 || i >= len(n.names) {
		return Other
	}
	return n.names[i]
}

// Limit is how many names are told apart.
func (n *Names) Limit() int { return n.limit }
