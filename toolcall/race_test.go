//go:build race

package toolcall

// raceEnabled is true when the race detector is on: it makes sync.Pool
// drop items at random, so allocation counts are not checked.
const raceEnabled = true
