package schema

import (
	"encoding/binary"
	"math/bits"
)

// plainRun returns the offset of the first byte from d[i] on that is not
// plain string text — '"', '\\', a control byte below 0x20 or a byte of
// 0x80 and above — or len(d): the scanners skip the plain text of
// strings and keys eight bytes at a time, then look at the byte it stops
// at as before.
func plainRun(d []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(d) {
		x := binary.LittleEndian.Uint64(d[i:])
		// A byte's high bit is set in m when the byte is below 0x20, a
		// quote or a backslash (a subtraction borrows only from such a
		// byte, so a byte flagged wrongly always follows one flagged
		// rightly), or is 0x80 or above.
		q, b := x^(ones*'"'), x^(ones*'\\')
		m := ((x - ones*0x20) | (q - ones) | (b - ones) | x) & highs
		if m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(d) {
		if c := d[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return i
		}
		i++
	}
	return i
}
