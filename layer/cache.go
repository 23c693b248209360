package layer

import (
	"fmt"
	"sync"
)

// DefaultCacheSize is how many entries a Cache holds before it starts over.
const DefaultCacheSize = 1024

// Cache memoizes what a layer builds from its inputs (compiled schemas,
// compiled rules) by a key the layer derives, typically a content hash.
// Failures are cached too. A Cache is safe for concurrent use; a build for a
// key runs once even when many requests ask at the same time.
type Cache struct {
	mu   sync.Mutex
	max  int
	m    map[string]*cacheEntry
	hits int
}

type cacheEntry struct {
	once sync.Once
	val  any
	err  error
}

// NewCache returns a cache of at most size entries (DefaultCacheSize when
// size <= 0). When full, it is emptied before the next entry is added.
func NewCache(size int) *Cache {
	if size <= 0 {
		size = DefaultCacheSize
	}
	return &Cache{max: size, m: make(map[string]*cacheEntry)}
}

// Load returns the value cached under key, building it with build on a miss.
// A nil Cache builds every time.
func (c *Cache) Load(key string, build func() (any, error)) (any, error) {
	if c == nil {
		return build()
	}
	c.mu.Lock()
	e, ok := c.m[key]
	if ok {
		c.hits++
	} else {
		if len(c.m) >= c.max {
			clear(c.m)
		}
		e = &cacheEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				e.err = fmt.Errorf("layer: cache build panicked: %v", r)
			}
		}()
		e.val, e.err = build()
	})
	return e.val, e.err
}

// Stats returns the number of entries and of hits so far.
func (c *Cache) Stats() (entries, hits int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m), c.hits
}
