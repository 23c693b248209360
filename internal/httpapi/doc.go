// Package httpapi is the HTTP plumbing judge's HTTP front ends share (the
// API of package server and the OpenAI-compatible proxy of package proxy):
// reading a request body within a size limit and the server's read
// deadline, checking its media type, admitting a request against an
// in-flight count and byte budget, answering errors as RFC 9457 problem
// documents (the one place where errors get their status), request ids,
// the access log and panic recovery middleware, and graceful serving.
//
// It holds no state of its own: an [Admission] is made by its owner, and
// every function takes what it needs.
package httpapi
