package schema

import (
	"hash/maphash"
	"slices"
)

// keySet finds a repeated key among an object's keys as they are read,
// comparing each key with few others whatever the object's size: the
// first smallObject keys of an object are compared with each other (by
// the caller, membersFrom, cheaper than any hashing); past them, they go
// in a hash table of their seeded hashes in the scanner's scratch (s.tab),
// at most half full, where a key is compared only with the keys of its
// hash. The seed is the scanner's, drawn at random, so a document cannot
// choose keys that collide. Objects nest: an object's table is the top of
// s.tab while its keys are read (an inner object's table is dropped when
// that object ends), so it grows in place.
type keySet struct {
	base int // where the object's table starts in s.tab
	size int // its slots, 0 before it is made
}

// smallObject is how many keys of an object are compared with each other
// rather than hashed: up to 16 keys, comparing a key with the earlier ones
// of its length costs less than hashing them all (the corpus's large
// document's records have 10).
const smallObject = 16

// addKey adds the key data[ks:ke] to the object whose keys are
// s.keys[keyStart:], smallObject or more, and reports whether the object
// already holds it (then nothing is added).
func (s *scanner) addKey(set *keySet, keyStart, ks, ke int) (repeated bool) {
	key := s.data[ks:ke]
	n := len(s.keys) - keyStart
	if 2*(n+1) > set.size {
		s.rehash(set, keyStart)
	}
	if s.lookup(set, keyStart, key, maphash.Bytes(s.seed, key), n) {
		return true
	}
	s.keys = append(s.keys, [2]int{ks, ke})
	return false
}

// lookup finds key, of hash h, in the object's table, or puts k (its
// index among the object's keys) in its place and reports false. An entry
// is the upper half of its key's hash, which also picks its first slot
// (so that the table grows without hashing its keys again), and the key's
// index plus one (0 is a free slot).
func (s *scanner) lookup(set *keySet, keyStart int, key []byte, h uint64, k int) bool {
	tab := s.tab[set.base : set.base+set.size]
	mask := uint64(set.size - 1)
	tag := h >> 32
	for at := tag & mask; ; at = (at + 1) & mask {
		e := tab[at]
		if e == 0 {
			tab[at] = tag<<32 | uint64(k+1)
			return false
		}
		if e>>32 == tag {
			sp := s.keys[keyStart+int(uint32(e))-1]
			if string(s.data[sp[0]:sp[1]]) == string(key) {
				return true
			}
		}
	}
}

// rehash makes the object's table twice as large and puts its entries in
// it (at first, 64 slots for the keys read so far, hashed).
func (s *scanner) rehash(set *keySet, keyStart int) {
	if set.size == 0 {
		set.base, set.size = len(s.tab), 64
		s.tab = slices.Grow(s.tab, set.size)[:set.base+set.size]
		clear(s.tab[set.base:])
		for k, sp := range s.keys[keyStart:] {
			key := s.data[sp[0]:sp[1]]
			s.lookup(set, keyStart, key, maphash.Bytes(s.seed, key), k)
		}
		return
	}
	// The old entries move past the new table, then each goes to its
	// place in it by its tag.
	old := set.size
	set.size *= 2
	s.tab = slices.Grow(s.tab, set.size)[:set.base+set.size+old]
	moved := s.tab[set.base+set.size:]
	copy(moved, s.tab[set.base:set.base+old])
	clear(s.tab[set.base : set.base+set.size])
	tab, mask := s.tab[set.base:set.base+set.size], uint64(set.size-1)
	for _, e := range moved {
		if e == 0 {
			continue
		}
		at := (e >> 32) & mask
		for tab[at] != 0 {
			at = (at + 1) & mask
		}
		tab[at] = e
	}
	s.tab = s.tab[:set.base+set.size]
}
