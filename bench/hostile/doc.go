// Package hostile is judge's hostile-input suite: a test, behind the build
// tag hostile, that builds judge, starts judge serve on loopback as a real
// process and sends it the inputs of an attacker (huge bodies, deep
// nesting, reference cycles, catastrophic patterns, cost bombs, alias and
// entity bombs, …), each with the status and message expected, checking
// after each that the server still answers /healthz and an ordinary
// /validate correctly, and reporting its peak RSS. Run it with
//
//	go test -tags hostile -v ./bench/hostile
//
// (docs/performance.md, "Hostile inputs").
package hostile
