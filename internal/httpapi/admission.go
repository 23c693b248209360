package httpapi

import (
	"fmt"
	"sync"
)

// Admission bounds the requests answered at once: a count of in-flight
// slots and a budget of their bodies' bytes, so that a few large requests
// (whose cost grows with their size) cannot take the whole service from
// small ones. It never waits: a request over either limit is refused at
// once with a *BusyError (503 with Retry-After). It is safe for concurrent
// use.
type Admission struct {
	// inFlight holds a token per request being answered; weight is the
	// sum of their bodies' bytes, under mu.
	inFlight chan struct{}
	maxBytes int64
	mu       sync.Mutex
	weight   int64
}

// NewAdmission returns an Admission of maxInFlight slots and maxBytes
// bytes; both must be positive.
func NewAdmission(maxInFlight int, maxBytes int64) *Admission {
	return &Admission{inFlight: make(chan struct{}, max(maxInFlight, 1)), maxBytes: max(maxBytes, 1)}
}

// BusyError is a request refused because the service is saturated: 503
// with Retry-After.
type BusyError struct {
	// Msg says which limit is reached.
	Msg string
}

func (e *BusyError) Error() string { return e.Msg }

// Admit takes an in-flight slot and weight bytes of the budget (a body
// larger than the whole budget weighs the budget, so that it runs alone),
// without waiting: when either is exhausted it returns a *BusyError.
// release gives both back.
func (a *Admission) Admit(weight int64) (release func(), err error) {
	select {
	case a.inFlight <- struct{}{}:
	default:
		return nil, &BusyError{fmt.Sprintf("the server is answering %d requests, its limit (--max-in-flight); retry shortly", cap(a.inFlight))}
	}
	weight = max(min(weight, a.maxBytes), 1)
	a.mu.Lock()
	if a.weight+weight > a.maxBytes {
		used := a.weight
		a.mu.Unlock()
		<-a.inFlight
		return nil, &BusyError{fmt.Sprintf("the server is answering requests of %d bytes in all and this one adds %d, over its limit of %d (--max-in-flight-bytes); retry shortly", used, weight, a.maxBytes)}
	}
	a.weight += weight
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		a.weight -= weight
		a.mu.Unlock()
		<-a.inFlight
	}, nil
}

// Saturation says why a request would be refused now, or "" when one
// would be admitted: every in-flight slot taken, or the in-flight bytes at
// their limit.
func (a *Admission) Saturation() string {
	if n := len(a.inFlight); n >= cap(a.inFlight) {
		return fmt.Sprintf("saturated: %d of %d requests in flight", n, cap(a.inFlight))
	}
	a.mu.Lock()
	used := a.weight
	a.mu.Unlock()
	if used >= a.maxBytes {
		return fmt.Sprintf("saturated: %d of %d in-flight request bytes", used, a.maxBytes)
	}
	return ""
}
