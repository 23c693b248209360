package telemetry

import (
	"encoding/binary"

	"go.opentelemetry.io/otel/trace"
)

// putHexIDs writes the trace id's and the span id's lowercase hex digits
// into dst (32 and 16 bytes), as hex.Encode does: the ids of a log line
// (the access log's, every line under a span), written four bytes at a
// time in a word rather than a table read and two stores a byte.
func putHexIDs(dst *[48]byte, tid trace.TraceID, sid trace.SpanID) {
	be := binary.BigEndian
	be.PutUint64(dst[0:], hex4(be.Uint32(tid[0:])))
	be.PutUint64(dst[8:], hex4(be.Uint32(tid[4:])))
	be.PutUint64(dst[16:], hex4(be.Uint32(tid[8:])))
	be.PutUint64(dst[24:], hex4(be.Uint32(tid[12:])))
	be.PutUint64(dst[32:], hex4(be.Uint32(sid[0:])))
	be.PutUint64(dst[40:], hex4(be.Uint32(sid[4:])))
}

// hex4 is the 8 lowercase hex digits of v's 4 bytes, the first digit in
// the word's highest byte.
func hex4(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000ffff0000ffff // a byte a 16-bit lane: 0x00b0_00b1_00b2_00b3
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x&0x00f000f000f000f0)<<4 | x&0x000f000f000f000f // a nibble a byte: 0x0h0l
	// A nibble above 9 is a letter: '0'+n, and 'a'-'0'-10 = 39 more
	// where n+6 carries into the byte's fifth bit.
	letters := (x + 0x0606060606060606) >> 4 & 0x0101010101010101
	return x + 0x3030303030303030 + letters*39
}
