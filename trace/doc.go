// Package trace checks recorded agent conversations: an OpenAI chat
// message list whose assistant messages carry tool_calls and whose role
// "tool" messages carry the results. Every call is checked against its
// tool's contract before execution (toolcall's Check), every result is
// classified after it (toolcall's Outcome), a session per conversation
// gives the progress verdicts as the conversation went, and policy rules
// written in CEL are evaluated at every call with the conversation so far.
//
// Decode reads one conversation, a JSON array of them, or JSONL, including
// tau-bench's {task_id, trial, reward, traj} records. A Checker checks one
// conversation at a time into a Report; Summarize counts a set of reports.
// See docs/trace.md.
package trace
