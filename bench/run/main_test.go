package main

import (
	"errors"
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ got, want string }{
		{dur(950), "950 ns"}, {dur(12_345), "12.3 µs"}, {dur(4_230_000), "4.23 ms"}, {dur(3.61e9), "3.61 s"},
		{thousands(7), "7"}, {thousands(1941), "1,941"}, {thousands(1234567), "1,234,567"},
		{perSec(147470.6), "147,471/s"}, {ratio(0.4816), "0.48×"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestSelected(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id, only string
		want     bool
	}{{"http", "", true}, {"http", "http", true}, {"http", "sch,http", true}, {"grow", "schema", false}, {"schema", "schema-small", true}} {
		if got := selected(tc.id, tc.only); got != tc.want {
			t.Errorf("selected(%q, %q) = %v", tc.id, tc.only, got)
		}
	}
}

// measure runs an op at least once after warming up, for about d, and
// stops at the op's first error.
func TestMeasure(t *testing.T) {
	t.Parallel()
	calls := 0
	ns, err := measure(10*time.Millisecond, func(int) error { calls++; time.Sleep(time.Millisecond); return nil })
	// At least one warm-up and one measured call, each of at least 1 ms,
	// and the measured ones (at most calls-1) filling the 10 ms asked for,
	// however slowly a loaded machine wakes the sleeps.
	if err != nil || calls < 2 || ns < 1e6 || ns*float64(calls-1) < 10e6 {
		t.Fatalf("ns %v, calls %d, err %v", ns, calls, err)
	}
	calls = 0
	ns, err = measure(time.Millisecond, func(int) error { calls++; time.Sleep(5 * time.Millisecond); return nil })
	if err != nil || calls != 2 || ns < 5e6 {
		t.Fatalf("slow op: ns %v, calls %d (want 2: one warm-up, one measured), err %v", ns, calls, err)
	}
	// A fast op reads the clock once a batch: far fewer readings than ops.
	// The clock is the ops' own (each takes 100 ns of it), so that what is
	// counted does not depend on the machine's speed or load.
	calls, reads := 0, 0
	ns, err = measureClock(20*time.Millisecond, func(int) error { calls++; return nil },
		func() time.Duration { reads++; return time.Duration(calls) * 100 * time.Nanosecond })
	if err != nil || ns != 100 || calls < 20e6/100 || reads*100 > calls {
		t.Fatalf("fast op: ns %v (want 100), %d calls, %d clock readings (want at most one per 100 calls), err %v", ns, calls, reads, err)
	}
	boom := errors.New("boom")
	if _, err := measure(time.Second, func(i int) error {
		if i == 3 {
			return boom
		}
		return nil
	}); !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
}
