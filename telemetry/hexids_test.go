package telemetry

import (
	"encoding/hex"
	"io"
	"log/slog"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/internal/accesslog"
)

// checkHexIDs fails t unless putHexIDs writes what hex.Encode does.
func checkHexIDs(t *testing.T, tid trace.TraceID, sid trace.SpanID) {
	t.Helper()
	var got [48]byte
	putHexIDs(&got, tid, sid)
	if want := hex.EncodeToString(tid[:]) + hex.EncodeToString(sid[:]); string(got[:]) != want {
		t.Errorf("putHexIDs(%x, %x) = %q, want %q", tid, sid, got[:], want)
	}
}

// TestPutHexIDs: every byte value at every position of both ids, and
// ids of one repeated byte, come out as hex.Encode writes them.
func TestPutHexIDs(t *testing.T) {
	t.Parallel()
	for v := range 256 {
		var tid trace.TraceID
		var sid trace.SpanID
		for i := range tid {
			tid[i] = byte(v + 37*i) // each position sees every value
		}
		for i := range sid {
			sid[i] = byte(v + 101*i)
		}
		checkHexIDs(t, tid, sid)
		for i := range tid {
			tid[i] = byte(v)
		}
		for i := range sid {
			sid[i] = byte(v)
		}
		checkHexIDs(t, tid, sid)
	}
}

// FuzzPutHexIDs: any ids come out as hex.Encode writes them.
func FuzzPutHexIDs(f *testing.F) {
	f.Add([]byte("\x4b\xf9\x2f\x35\x77\xb3\x4d\xa6\xa3\xce\x92\x9d\x0e\x0e\x47\x36\x00\xf0\x67\xaa\x0b\xa9\x02\xb7"))
	f.Add(make([]byte, 24))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 24 {
			return
		}
		checkHexIDs(t, trace.TraceID(b[:16]), trace.SpanID(b[16:24]))
	})
}

// TestAccessLogTakesIDs: judge serve's access-log handler is an
// idsHandler, so that LogHandler hands it the ids' digits (an interface
// of another package's shape, held here: a change of either signature
// would only turn the direct path off).
func TestAccessLogTakesIDs(t *testing.T) {
	t.Parallel()
	h := accesslog.NewHandler(accesslog.NewBuffer(io.Discard, time.Hour), slog.LevelInfo)
	if _, ok := h.(idsHandler); !ok {
		t.Fatalf("%T is not an idsHandler", h)
	}
}
