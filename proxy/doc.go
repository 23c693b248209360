// Package proxy is judge in front of the model: an OpenAI-compatible
// chat completions endpoint (POST /v1/chat/completions) that forwards
// each request to an upstream OpenAI-compatible server (OpenAI, vLLM,
// Ollama, llama.cpp) and checks its answer against the request's own
// contracts as it streams back: the content of each choice against the
// response_format's JSON Schema (the schema layer), and the arguments of
// each tool call against its tool's parameters with the tool-call
// pipeline's pre-execution check (contracts from the request's tools,
// normalization, repair).
//
// # When a document is checked
//
// Deltas are assembled per choice and, for tool calls, per index. A tool
// call's arguments are checked as soon as the call is complete: when the
// next call of its choice starts, or when the choice's finish_reason
// arrives; the content when its choice finishes. The checks run at a
// [Checkpoint]: [WholeDocuments] checks each document whole, and also
// streams each content through judge's streaming validator
// (judge.Engine.Stream), whose certain violations its watch reports from
// [Watch.Feed], mid-document, which the proxy acts on at once; another
// checkpoint plugs in through [Options.Checkpoint].
//
// # Modes
//
// [Pass] forwards the answer untouched and only logs and counts the
// verdicts; [Annotate] adds a last chunk (before data: [DONE]) whose
// "judge" member is the [Report]; [Stop] cancels the upstream's request at
// the first violation, ends every choice still generating with
// finish_reason "content_filter", and sends the Report, with the repair
// text for the client's retry, in a last chunk before [DONE]; an answer
// without a violation gets the Report as in annotate.
//
// # The Responses API
//
// POST /v1/responses is OpenAI's Responses API with the same checks: the
// text of the answer against text.format's json_schema, each function
// call's arguments against the request's function tools, checked at the
// call's function_call_arguments.done. Annotate and stop add a last
// "judge.validation" event ([ValidationEvent]) after the terminal event;
// stop ends the stream at the first violation with response.incomplete
// (incomplete_details.reason "content_filter") and that event. Answers
// that are not streamed get a "judge" member (docs/proxy.md).
//
// Errors of the proxy itself are RFC 9457 problem documents, as judge's
// API answers them (internal/httpapi); an upstream's error answer passes
// through with its status and body.
package proxy
