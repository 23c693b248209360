// Package console is judge's face for people: HTML pages rendered on the
// server from judge's own reports and data.
//
// The self-contained reports (a file that opens from disk with no network
// and no server) are [WriteTrace], for the conversations judge trace
// checked, and [WriteLint], for a tool registry's lint. Each is a pure
// function from a report to an io.Writer, used by the command line and by
// tests alike.
//
// The web console is served by judge serve beside its API: [Playground]
// is the page at "/" that validates an output through the server's own
// POST /validate. Its pages share one shell (the nav, the API key dialog
// and assets/api.js, the one script that makes API calls with the key
// kept in the tab's sessionStorage); they hold no data, so they are served
// without the key, and every API call they make carries it.
//
// Every page is made with html/template, so every text that comes from a
// conversation, a tool or a rules file is escaped for where it lands, and
// the console's scripts insert the texts of a result as text only; CSS
// and JavaScript are embedded in the binary (go:embed) and inlined,
// allowed by their SHA-256 in a Content-Security-Policy that forbids
// every other script, style source and request (default-src 'none'; the
// console's pages may also connect to their own server).
// Charts are plain SVG drawn here, each with the table of its numbers.
package console
