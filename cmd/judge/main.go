// Command judge validates the outputs of LLM agents and answers with a
// ValidationResult: valid, confidence, issues, passed and failed criteria,
// quality score and metadata.
//
// # Commands
//
//	judge validate [FILE|-]   validate one output (a file, or stdin) against a
//	                          JSON Schema (--schema, with $ref into --schemas DIR),
//	                          CEL rules (--rules) and plain-language criteria
//	                          (--criteria); --format json|text
//	judge serve               serve the HTTP API (POST /validate, /healthz, …)
//	                          on --addr; the bearer token is read from the
//	                          environment variable named by --token-env
//	judge tools lint [DIR...] lint tool manifests (default .ai/tools), or MCP
//	                          definitions with --mcp FILE: one ValidationResult
//	                          per tool; --format json|text|sarif; exit 0 clean,
//	                          1 errors, 2 bad input
//	judge tools export [DIR...]
//	                          print the registry's tools as a model provider's
//	                          tool definitions
//	judge tools migrate [DIR] turn scripts with embedded metadata into a
//	                          directory with tool.yaml
//	judge tools new --type TYPE NAME
//	                          create a tool that lints clean
//	judge tools run TOOL ARGS_JSON --tools DIR
//	                          run one tool through check, execute and outcome
//	judge schema strict FILE  print the OpenAI strict-mode form of a JSON Schema,
//	                          listing on stderr what it no longer enforces
//	judge schema response-format --name N FILE
//	                          print the response_format object around it
//	judge schema result       print the JSON Schema of the ValidationResult
//	judge schema explain FILE say whether a JSON Schema takes the compiled fast
//	                          path, and why not
//	judge call check (--tools DIR | --defs FILE) TOOL ARGS_JSON
//	                          check a tool call's arguments before it runs:
//	                          result, normalized arguments, repair feedback;
//	                          exit 0 valid, 1 invalid, 2 bad input
//	judge call outcome (--tools DIR | --defs FILE) TOOL ARGS_JSON RESULT_JSON
//	                          classify its result: SATISFIED, NEEDS_MORE_TOOLS,
//	                          NEED_USER_INPUT or FAILED, facts, next tools
//	judge trace (--tools DIR | --defs FILE) [--rules FILE] FILE
//	                          check recorded agent conversations call by call
//	judge gateway --tools DIR [--http ADDR] [--expose-judge]
//	                          serve the registry's tools as an MCP server with
//	                          judge around every call
//	judge proxy --upstream URL [--addr :8090] [--on-violation pass|annotate|stop]
//	                          serve an OpenAI-compatible endpoint in front of
//	                          another that checks the model's answers (JSON
//	                          content, tool-call arguments) as they stream
//	judge eval --wice FILE --summedits FILE...
//	                          measure the facts and hallucination layers on
//	                          WiCE and SummEdits
//	judge metrics [FILE|-]    print each function's line, cyclomatic complexity
//	                          (as radon, gocyclo or ESLint count it) and length
//	                          as JSON; --lang python|javascript|typescript|go|bash
//	judge version             print the version
//
// Plain-language criteria are judged by a model when JUDGE_LLM_BASE_URL and
// JUDGE_LLM_MODEL (and JUDGE_LLM_API_KEY, if the server needs a key) name an
// OpenAI-compatible server; without them they are reported as not checked.
// JUDGE_LLM_CACHE_DIR keeps the model's answers on disk across runs.
//
// The tool-call sessions of judge serve and judge call --session are kept in
// memory, or in Redis when JUDGE_REDIS_URL (redis://host:port/db, or
// redis+cluster://host:port?addr=host:port for a Redis Cluster) is set, so
// that several replicas, or several runs, share them.
//
// # Config file
//
// The llm section of a YAML config file can name the model instead, and its
// serve section gives judge serve's defaults. The file is --config FILE,
// else the one JUDGE_CONFIG names, else $XDG_CONFIG_HOME/judge/config.yaml
// (~/.config/judge/config.yaml) when it exists. Flags override environment
// variables, which override the file, which overrides the defaults. See
// docs/config.md.
//
// The output under validation is read as JSON when it is JSON; otherwise it
// is text, and a JSON object inside a ```json fence is found and checked.
//
// # Exit status
//
// judge validate exits 0 when the output is valid (and its quality score is
// at least --min-quality), 1 when it is invalid or below --min-quality, and 2
// when it could not decide: an unreadable file, a malformed schema or rules
// file, an unknown validation type, a bad flag. Errors are written to
// stderr as "judge: FILE:LINE:COL: message" where a position is known.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(Execute(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
