package layer

import (
	"fmt"
	"slices"
	"sync"
)

// DefaultCacheSize is how many entries a Cache holds at most; past it, its
// least recently used entry is evicted.
const DefaultCacheSize = 1024

// DefaultCacheBytes is the default byte budget of one engine's caches
// together: 256 MiB, a quarter of a small machine's gigabyte.
const DefaultCacheBytes = 256 << 20

// entryOverhead is what an entry costs beyond its value: the map slot, the
// entry, its key's header.
const entryOverhead = 160

// defaultValueBytes is the size charged for a value that is not a [Sizer].
const defaultValueBytes = 1 << 10

// Sizer is a value that can say roughly how many bytes of memory it
// holds: what a Cache charges against its budget for it. Estimates should
// err on the high side.
type Sizer interface {
	Size() int64
}

// Budget bounds the bytes of the caches made from it together
// ([Budget.NewCache]): when an entry would take them over the limit, the
// least recently used entries of any of them are evicted first. An entry
// alone larger than the limit is not kept. A Budget is safe for concurrent
// use; its caches share its lock.
type Budget struct {
	mu     sync.Mutex
	limit  int64
	used   int64
	tick   uint64
	caches []*Cache
}

// NewBudget returns a budget of limit bytes (DefaultCacheBytes when limit
// <= 0).
func NewBudget(limit int64) *Budget {
	if limit <= 0 {
		limit = DefaultCacheBytes
	}
	return &Budget{limit: limit}
}

// Limit returns the budget in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Cache memoizes what a layer builds from its inputs (compiled schemas,
// compiled rules, source indexes) by a key the layer derives, typically a
// content hash. Failures are cached too. Each entry is charged its size
// ([Sizer]) against the cache's [Budget], and least recently used entries
// are evicted to stay within it and within the cache's entry count. A Cache
// is safe for concurrent use; a build for a key runs once even when many
// requests ask at the same time.
type Cache struct {
	name string
	b    *Budget
	max  int
	m    map[string]*cacheEntry
	// head is the most recently used built entry, tail the least; entries
	// being built are in m but not in the list, and not charged yet.
	head, tail *cacheEntry
	bytes      int64
	hits       int64
	misses     int64
	evictions  int64
}

type cacheEntry struct {
	once sync.Once
	val  any
	err  error

	key        string
	size       int64 // charged; 0 until built
	used       uint64
	prev, next *cacheEntry
	linked     bool
}

// NewCache returns a cache of at most size entries (DefaultCacheSize when
// size <= 0) with a budget of its own of DefaultCacheBytes.
func NewCache(size int) *Cache {
	return NewBudget(0).NewCache("cache", size)
}

// NewCache returns a cache named name (for its [CacheStats]) of at most
// size entries (DefaultCacheSize when size <= 0), whose bytes count
// against b.
func (b *Budget) NewCache(name string, size int) *Cache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	c := &Cache{name: name, b: b, max: size, m: make(map[string]*cacheEntry)}
	b.mu.Lock()
	b.caches = append(b.caches, c)
	b.mu.Unlock()
	return c
}

// Load returns the value cached under key, building it with build on a miss.
// A nil Cache builds every time.
func (c *Cache) Load(key string, build func() (any, error)) (any, error) {
	if c == nil {
		return build()
	}
	b := c.b
	b.mu.Lock()
	e, ok := c.m[key]
	if ok {
		c.hits++
		if e.linked {
			b.tick++
			e.used = b.tick
			c.unlink(e)
			c.pushFront(e)
		}
	} else {
		c.misses++
		if len(c.m) >= c.max && c.tail != nil {
			c.evict(c.tail)
		}
		e = &cacheEntry{key: key}
		c.m[key] = e
	}
	b.mu.Unlock()
	e.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				e.val, e.err = nil, fmt.Errorf("layer: cache build panicked: %v", r)
			}
			c.charge(e)
		}()
		e.val, e.err = build()
	})
	return e.val, e.err
}

// sizeOf is what entry e is charged: a failure, the size of its error
// (the value beside it is never used); else its value's.
func sizeOf(e *cacheEntry) int64 {
	n := int64(entryOverhead + len(e.key))
	if e.err != nil {
		if s, ok := e.err.(Sizer); ok {
			return n + max(s.Size(), 0)
		}
		return n + int64(len(e.err.Error())) + 64
	}
	switch v := e.val.(type) {
	case nil:
	case Sizer:
		n += max(v.Size(), 0)
	default:
		n += defaultValueBytes
	}
	return n
}

// charge counts the built entry e against the budget, evicting least
// recently used entries until it fits, or drops e when it alone is over
// the limit (or was dropped while it was built).
func (c *Cache) charge(e *cacheEntry) {
	size := sizeOf(e)
	b := c.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.m[e.key] != e {
		return
	}
	if size > b.limit {
		delete(c.m, e.key)
		c.evictions++
		return
	}
	for b.used+size > b.limit {
		if !b.evictOldest() {
			break
		}
	}
	b.tick++
	e.size, e.used = size, b.tick
	b.used += size
	c.bytes += size
	c.pushFront(e)
}

// evictOldest evicts the least recently used entry of all the budget's
// caches; it returns false when none holds a built entry.
func (b *Budget) evictOldest() bool {
	var oldest *Cache
	for _, c := range b.caches {
		if c.tail != nil && (oldest == nil || c.tail.used < oldest.tail.used) {
			oldest = c
		}
	}
	if oldest == nil {
		return false
	}
	oldest.evict(oldest.tail)
	return true
}

// evict removes the built entry e; b.mu is held.
func (c *Cache) evict(e *cacheEntry) {
	c.unlink(e)
	if c.m[e.key] == e {
		delete(c.m, e.key)
	}
	c.b.used -= e.size
	c.bytes -= e.size
	c.evictions++
}

func (c *Cache) pushFront(e *cacheEntry) {
	e.prev, e.next, e.linked = nil, c.head, true
	if c.head != nil {
		c.head.prev = e
	}
	c.head = e
	if c.tail == nil {
		c.tail = e
	}
}

func (c *Cache) unlink(e *cacheEntry) {
	if !e.linked {
		return
	}
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next, e.linked = nil, nil, false
}

// Stats returns the number of entries and of hits so far.
func (c *Cache) Stats() (entries, hits int) {
	s := c.Usage()
	return s.Entries, int(s.Hits)
}

// CacheStats describes one cache at one moment.
type CacheStats struct {
	// Name is the cache's name: the layer's, or what several layers
	// share ("sources").
	Name string
	// Entries counts the entries, built or being built; Bytes is what the
	// built ones are charged.
	Entries int
	Bytes   int64
	// Hits, Misses and Evictions count lookups found, lookups that built,
	// and entries dropped to stay within the budget or the entry count.
	Hits, Misses, Evictions int64
}

// Usage returns the cache's statistics.
func (c *Cache) Usage() CacheStats {
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	return c.usage()
}

func (c *Cache) usage() CacheStats {
	return CacheStats{Name: c.name, Entries: len(c.m), Bytes: c.bytes, Hits: c.hits, Misses: c.misses, Evictions: c.evictions}
}

// Stats returns the statistics of every cache of the budget, sorted by
// name, and the bytes they hold together.
func (b *Budget) Stats() (caches []CacheStats, used int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.caches {
		caches = append(caches, c.usage())
	}
	slices.SortFunc(caches, func(x, y CacheStats) int {
		switch {
		case x.Name < y.Name:
			return -1
		case x.Name > y.Name:
			return 1
		}
		return 0
	})
	return caches, b.used
}
