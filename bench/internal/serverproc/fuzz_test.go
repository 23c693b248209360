package serverproc

import (
	"os"
	"testing"
	"time"
)

// FuzzParseStatus: any text gives a status or an error, never a panic,
// and a status it accepts has no negative figure.
func FuzzParseStatus(f *testing.F) {
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("VmHWM:\t  100 kB\nVmRSS:\t  90 kB\nThreads:\t4\n"))
	f.Add([]byte("VmRSS: x kB\nThreads:"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseStatus(data)
		if err == nil && (s.Threads < 0 || s.RSS < 0 || s.PeakRSS < 0) {
			t.Fatalf("negative figure accepted: %+v", s)
		}
	})
}

func TestParseStatus(t *testing.T) {
	t.Parallel()
	s, err := parseStatus([]byte("Name:\tjudge\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\nThreads:\t7\n"))
	if err != nil || s != (Status{RSS: 1 << 20, PeakRSS: 2 << 20, Threads: 7}) {
		t.Fatalf("%+v, %v", s, err)
	}
	if _, err := parseStatus([]byte("VmRSS:\t1 kB\n")); err == nil {
		t.Fatal("no Threads nor VmHWM: want an error")
	}
}

// Negative and overflowing figures are not read as figures.
func TestParseStatusBounds(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"VmHWM:\t-5 kB\nVmRSS:\t1 kB\nThreads:\t1\n",
		"VmHWM:\t1 kB\nVmRSS:\t99999999999999999 kB\nThreads:\t1\n",
	} {
		if s, err := parseStatus([]byte(text)); err == nil {
			t.Errorf("%q: accepted as %+v", text, s)
		}
	}
}

// FuzzParseStat: any text gives a CPU time or an error, never a panic,
// and an accepted time is not negative.
func FuzzParseStat(f *testing.F) {
	if data, err := os.ReadFile("/proc/self/stat"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("42 (a) b)) S 1 2 3 4 5 6 7 8 9 10 250 30 0 0"))
	f.Add([]byte("1 (x) S 1 2"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := parseStat(data)
		if err == nil && d < 0 {
			t.Fatalf("negative CPU time %v accepted", d)
		}
	})
}

func TestParseStat(t *testing.T) {
	t.Parallel()
	// The name holds a space and a ')': fields are counted after the last one.
	d, err := parseStat([]byte("42 (judge) x) S 1 2 3 4 5 6 7 8 9 10 250 30 0 0 20 0 9"))
	if err != nil || d != 2800*time.Millisecond {
		t.Fatalf("%v, %v; want 2.8s", d, err)
	}
	for _, bad := range []string{"42 judge S", "42 (j) S 1 2 3", "42 (j) S 1 2 3 4 5 6 7 8 9 10 -1 3"} {
		if d, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("%q: accepted as %v", bad, d)
		}
	}
	if data, err := os.ReadFile("/proc/self/stat"); err == nil {
		if _, err := parseStat(data); err != nil {
			t.Errorf("this process's own stat: %v", err)
		}
	}
}
