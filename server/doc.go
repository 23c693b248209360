// Package server is judge's HTTP API: one [Server] over one judge.Engine.
//
// # Routes
//
//	POST /validate, POST /v1/validate   judge.Request → result.ValidationResult
//	GET  /healthz                        liveness: 200 {"status":"ok"}
//	GET  /readyz                         readiness: 200, or 503 while shutting down
//	GET  /metrics                        Prometheus text exposition
//	GET  /openapi.json                   OpenAPI 3.1 document of these routes
//	GET  /capabilities                   validation types, layers and limits
//	GET  /v1/dashboard                   the last 6 hours per minute (package history)
//	POST /v1/tools/lint                  {manifests: [{path, content}]} →
//	                                     {results: {tool_id: ValidationResult}, summary}
//
// Findings about an output are answered with 200, even when valid is false;
// only a request that could not be answered gets an error status, always as
// an RFC 9457 application/problem+json document (see package api for its
// codes). docs/api.md describes every route with examples.
//
// # Layering
//
// As in Open Policy Agent's v1/server, handlers live here and wire types
// and error codes in [github.com/agentjudge/judge/server/api]; one function
// maps every error to its status. Around the routes sit, from the outside
// in: request id and access log, metrics, panic recovery, bearer-token
// authentication, and a wrapper that turns the mux's plain-text 404 and 405
// into problem documents.
//
// A Server holds no package-level state: its metrics live in its own
// Prometheus registry, so several servers can run in one process. What it
// counts goes to the metrics and to its history (Options.History, the
// bounded per-minute ring of package history behind GET /v1/dashboard and
// the console's dashboard); per-layer numbers come from the engine through
// judge.ObserveLayers.
package server
