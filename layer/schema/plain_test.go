package schema

import (
	"math/rand/v2"
	"testing"
)

// plainRunBytes is plainRun a byte at a time, the reference.
func plainRunBytes(d []byte, i int) int {
	for i < len(d) {
		if c := d[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return i
		}
		i++
	}
	return i
}

// plainRun stops where the byte-at-a-time loop does, from every offset of
// documents of every byte next to the bounds it tests (0x1f, 0x20, '"',
// '\\', 0x7f, 0x80, 0xff) at every position of an eight-byte word.
func TestPlainRun(t *testing.T) {
	t.Parallel()
	special := []byte{0x00, 0x1f, 0x20, '!', '"', '#', '[', '\\', ']', 0x7f, 0x80, 0x81, 0xa0, 0xe0, 0xff}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		d := make([]byte, rng.IntN(40))
		for k := range d {
			if rng.IntN(4) == 0 {
				d[k] = special[rng.IntN(len(special))]
			} else {
				d[k] = byte('a' + rng.IntN(26))
			}
		}
		for i := range len(d) + 1 {
			if got, want := plainRun(d, i), plainRunBytes(d, i); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", d, i, got, want)
			}
		}
	}
}

func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`{"owner": "agentjudge", "repo": "judge"}`), 2)
	f.Add([]byte("plain text then \x1f and \"quote\" and \\ and \xc3\xa9"), 0)
	f.Add([]byte("\x00\x00\x00\x00\x00\x00\x00\x00\x00"), 3)
	f.Fuzz(func(t *testing.T, d []byte, i int) {
		if i < 0 || i > len(d) {
			return
		}
		if got, want := plainRun(d, i), plainRunBytes(d, i); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, want %d", d, i, got, want)
		}
	})
}
