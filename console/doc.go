// Package console is judge's face for people: HTML pages rendered on the
// server from judge's own reports. This slice holds the self-contained
// reports (a file that opens from disk with no network and no server):
// [WriteTrace] for the conversations judge trace checked and [WriteLint]
// for a tool registry's lint. Each is a pure function from a report to an
// io.Writer, used by the command line and by tests alike.
//
// Every page is made with html/template, so every text that comes from a
// conversation, a tool or a rules file is escaped for where it lands; its
// CSS and JavaScript are embedded in the binary (go:embed) and inlined,
// allowed by their SHA-256 in a Content-Security-Policy that forbids
// every other script, style source and request (default-src 'none').
// Charts are plain SVG drawn here, each with the table of its numbers.
package console
