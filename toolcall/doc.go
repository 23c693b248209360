// Package toolcall validates tool calls of LLM agents before and after they
// run, as docs/toolcall.md describes: contracts, pre-execution checks with
// repair feedback, post-execution outcomes with coverage status, compaction
// of large results, and session progress.
//
// # Contracts
//
// A tool's contract comes from an MCP tool definition (inputSchema,
// outputSchema), an OpenAI function definition, or a manifest; see
// [ParseDefinitions]. Beside the schema it may carry CEL rules
// ({id, expression, message, fieldPath?, when?}, reading the arguments as
// args), an applies_when map scoping parameters to actions, next_tools and
// allow_unknown_parameters. [Checker.Compile] compiles a definition once
// into a [Contract] and caches it by content; a broken rule or schema is a
// *[DefinitionError] with its position.
//
// # Pre-execution
//
// [Toolset.Check] checks a [Call]: unknown tool, every schema violation as
// its own error issue at the parameter's path, unknown parameters, rules;
// after normalization (defaults, action scopes, safe coercions), each
// change an info issue. An invalid result comes with a [Repair] block beside
// it.
//
// # Post-execution
//
// [Toolset.Outcome] classifies a tool's result (explicit failure, empty,
// output-schema violation, clarification request) into a coverage [Status]
// with a reason, extracted facts and suggested next tools, and [Compact]
// shortens large results to a character budget, never touching validation
// and error payloads.
//
// # Sessions
//
// With a session id, calls and outcomes are recorded in a [Store] (a
// [MemoryStore] by default) and each outcome carries a [Progress] verdict:
// continue, escalate once, or stop.
//
// A Checker, its Contracts and Toolsets are safe for concurrent use.
package toolcall
