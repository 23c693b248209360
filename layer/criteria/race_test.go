//go:build race

package criteria_test

// raceEnabled is true when the race detector is on: it changes how much
// the runtime allocates, so allocation limits are not checked.
const raceEnabled = true
