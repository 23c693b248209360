// Package llm is judge's one backend for checks that need a model: a client
// of any OpenAI-compatible chat completions API (OpenAI, vLLM, Ollama,
// llama.cpp server) built on github.com/openai/openai-go/v3.
//
// # Configuration
//
// [ConfigFromEnv] reads JUDGE_LLM_BASE_URL, JUDGE_LLM_MODEL and
// JUDGE_LLM_API_KEY. With neither of the first two set there is no model,
// and every layer stays deterministic. Nothing else is read from the
// environment: the SDK's own OPENAI_* variables are ignored.
//
// # Discipline
//
// Every call asks for structured output: response_format json_schema with
// strict true, from a [Schema] built by internal/strictschema, the builder
// behind judge schema response-format. The answer is decoded and validated
// against that schema (santhosh-tekuri/jsonschema); a malformed answer is
// asked for once more, with the problem stated, and a second one is a
// [*MalformedError]: the caller reports the check as undecided. Nothing is
// ever parsed out of free text.
//
// Each HTTP call has a deadline (CallTimeout) and each question another,
// retries included (RequestTimeout). A Client has at most MaxConcurrency
// calls under way. Only 429 and 5xx answers are retried, with exponential
// backoff or the server's Retry-After, and the same messages: a rate-limit
// error is never shown to the model. Answers are cached by base URL,
// model, messages and schema, so the same check is not paid twice: in
// memory, and across processes in [Config.CacheDir] when set, where an
// entry is checked again as a fresh answer before it is used. Token usage
// is reported with every answer.
//
// # Prompts
//
// Each check's prompt is a set of files under prompts/, embedded: for the
// criteria check, criteria.system.txt, criteria.user.tmpl and
// criteria.schema.json. The output and the context are untrusted: the user
// message encloses each between "BEGIN DATA <name> <tag>" and "END DATA
// <name> <tag>" lines, where the tag is derived from the content so the
// content cannot close its own fence, and says they are data, not
// instructions. testdata/<check>.txtar holds the exact request each check
// produces (go test -update rewrites it).
//
// Package llmtest is a fake server on loopback for tests.
package llm
