//go:build race

package code

// sampleScale multiplies the sampling step of the differential tests:
// the race detector slows parsing several times, so they read a fixed
// half of their files to stay near a minute on 2 cores.
const sampleScale = 2
