package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
)

// Output formats of --format.
const (
	formatJSON = "json"
	formatText = "text"
)

// validateParams are the flags of judge validate.
type validateParams struct {
	schema       string        // --schema: expected JSON Schema file
	schemasDir   string        // --schemas: directory of schemas for $ref
	criteria     []string      // --criteria: plain-language criteria
	rules        string        // --rules: JSON file of criteria objects
	context      string        // --context: JSON file read by rules as context
	sources      []string      // --source: files or directories of sources
	trusted      []string      // --trusted-source: URIs the output must agree with
	types        []string      // --types: validation types to run
	minQuality   float64       // --min-quality: lowest passing quality score
	minConf      float64       // --min-confidence: lowest confidence that can pass
	outputMode   *enumFlag     // --output-mode: auto | value
	assertFormat bool          // --assert-format
	timeout      time.Duration // --timeout: each layer's deadline; 0 = default
	format       *enumFlag     // --format: json | text; "" = by terminal
	stdin        io.Reader     // where "-" reads from
	config       string        // --config: the config file; "" = JUDGE_CONFIG or the default
	stderr       io.Writer     // where warnings go; nil = none
	stream       bool          // --stream: NDJSON events as the output arrives
	// getenv reads the model's configuration (JUDGE_LLM_*, JUDGE_CONFIG).
	getenv func(string) string
	// quality holds --max-complexity, --max-line-length and
	// --max-function-length, the quality layer's thresholds (0: default).
	quality layer.QualityOptions
}

func newValidateParams() validateParams {
	return validateParams{
		outputMode: newEnumFlag(judge.OutputAuto, judge.OutputAuto, judge.OutputValue),
		format:     newEnumFlag("", formatJSON, formatText),
		stdin:      os.Stdin,
		getenv:     os.Getenv,
	}
}

func initValidate(root *cobra.Command) {
	params := newValidateParams()
	cmd := &cobra.Command{
		Use:   "validate [FILE|-]",
		Short: "Validate one output and print its ValidationResult",
		Long: `Validate one output of an LLM agent and print its ValidationResult.

FILE (or stdin, when FILE is "-" or absent) holds the output. When its content
is JSON it is validated as that JSON value; otherwise it is text, and in the
default --output-mode auto a JSON object or array inside a ` + "```json" + ` fence
is found and validated.

The checks are a JSON Schema (--schema, with $ref resolved against --schemas
DIR and never fetched), CEL rules (--rules: a JSON array of
{"id", "description", "rule", "message"} objects; a rule reads "output" and
"context") and plain-language criteria (--criteria), which a model judges
when JUDGE_LLM_BASE_URL and JUDGE_LLM_MODEL (and JUDGE_LLM_API_KEY if it
needs one), or the llm section of the config file (--config), name an
OpenAI-compatible server, and which are reported as not checked without
one; JUDGE_LLM_CACHE_DIR (or llm.cache_dir) keeps the model's answers on
disk, so that a run repeated in CI does not ask it again. --source gives documents (a FILE, or a DIR of .txt, .md
and .json files) that the facts and hallucination layers check the output's
claims against, nothing fetched; --trusted-source names the ones the output
must agree with (see docs/grounding.md). --types limits the validation types
that run.

With --stream, the output is read as it arrives and one JSON object per line
is printed: {"at": N, "result": R} as soon as a violation of the schema is
certain (no continuation could make the output valid; N is how many bytes had
been read, R holds the new issues), and last {"at": N, "final": true,
"result": R} with the result validate prints for the whole output.

Exit status: 0 valid (with quality score >= --min-quality and confidence >=
--min-confidence), 1 invalid, below --min-quality, or too little decided to
pass (confidence below --min-confidence: checks that failed, timed out or
could not be decided never count as passed), 2 bad input (unreadable or malformed file, bad flag, unknown
validation type).`,
		Example: `  judge validate examples/ticket.json --schema examples/ticket.schema.json \
      --rules examples/ticket.rules.json --format text
  agent-cli run | judge validate - --schema ticket.schema.json --min-quality 0.8
  judge validate answer.md --criteria "The answer cites the refund policy"`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			params.stdin = cmd.InOrStdin()
			params.stderr = cmd.ErrOrStderr()
			params.config = configFlagValue(cmd)
			return runValidate(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.schema, "schema", "", "JSON Schema file the output must match (JSON only)")
	f.StringVar(&params.schemasDir, "schemas", "", "directory of *.json schemas, by $id, that $ref may name")
	f.StringArrayVar(&params.criteria, "criteria", nil, "a plain-language acceptance criterion (repeatable)")
	f.StringVar(&params.rules, "rules", "", `JSON file holding an array of criteria [{"id", "description", "rule", "message"}] with CEL rules`)
	f.StringVar(&params.context, "context", "", "JSON file whose value rules read as context")
	f.StringArrayVar(&params.sources, "source", nil, "source document FILE, or DIR of .txt/.md/.json files (repeatable)")
	f.StringArrayVar(&params.trusted, "trusted-source", nil, "URI of a source the output must agree with, resolved against the --source files by path, URL or file name; one that names none is a source_missing error (repeatable)")
	f.StringSliceVar(&params.types, "types", nil, "comma-separated validation types to run (schema, criteria, facts, hallucination, quality); default: every type whose inputs are given")
	f.Float64Var(&params.minQuality, "min-quality", 0, "exit 1 when the quality score is below this value in [0, 1]")
	f.Float64Var(&params.minConf, "min-confidence", DefaultMinConfidence, "exit 1 when the confidence is below this value in [0, 1]: too little was decided to pass")
	f.Var(params.outputMode, "output-mode", "how to read the output: auto (parse JSON in a string, also inside a json code fence) or value (as it is)")
	f.BoolVar(&params.assertFormat, "assert-format", false, `assert the schema "format" keyword (email, date-time, …) for every draft`)
	f.IntVar(&params.quality.MaxComplexity, "max-complexity", 0, "quality: highest cyclomatic complexity of a function not reported (default 10)")
	f.IntVar(&params.quality.MaxLineLength, "max-line-length", 0, "quality: longest line not reported (default 88 for Python, 100 otherwise)")
	f.IntVar(&params.quality.MaxFunctionLength, "max-function-length", 0, "quality: longest function, in lines, not reported (default 50)")
	f.DurationVar(&params.timeout, "timeout", 0, fmt.Sprintf("deadline of each validation layer (default %v; %v with a model)", judge.DefaultLayerTimeout, judge.LLMLayerTimeout))
	f.Var(params.format, "format", "output format: json or text (default text on a terminal, json otherwise)")
	f.BoolVar(&params.stream, "stream", false, `read the output as it arrives and print NDJSON: {"at": N, "result": …} for each schema violation as soon as it is certain (N: bytes read), then {"at": N, "final": true, "result": …} (see docs/streaming.md)`)
	root.AddCommand(cmd)
}

// runValidate validates the output named by args (stdin when none or "-")
// and writes its ValidationResult to out. It returns an *exitError with
// status 1 when the output is invalid or below params.minQuality, and one
// with status 2 for bad input.
func runValidate(ctx context.Context, params validateParams, args []string, out io.Writer) error {
	if math.IsNaN(params.minQuality) || params.minQuality < 0 || params.minQuality > 1 {
		return badInputf("--min-quality %v is not in [0, 1]", params.minQuality)
	}
	if math.IsNaN(params.minConf) || params.minConf < 0 || params.minConf > 1 {
		return badInputf("--min-confidence %v is not in [0, 1]", params.minConf)
	}
	if params.timeout < 0 {
		return badInputf("--timeout %v is negative", params.timeout)
	}
	var opts []judge.Option
	if params.timeout > 0 {
		opts = append(opts, judge.WithLayerTimeout(params.timeout))
	}
	cfg, err := loadConfig(params.config, params.getenv, params.stderr)
	if err != nil {
		return err
	}
	if model, err := modelOption(cfg, params.getenv); err != nil {
		return err
	} else if model != nil {
		opts = append(opts, model)
	}
	var schemaFiles []judge.SchemaFile
	if params.schemasDir != "" {
		var err error
		if schemaFiles, err = judge.ReadSchemaDir(params.schemasDir); err != nil {
			return badInput(err)
		}
		schemas := map[string]any{}
		for _, f := range schemaFiles {
			schemas[f.URI] = f.Doc
		}
		opts = append(opts, judge.WithSchemas(schemas))
	}

	if params.stream {
		return runValidateStream(ctx, params, args, opts, schemaFiles, out)
	}
	req, src, err := buildRequest(params, args)
	if err != nil {
		return err
	}
	src.schemas = map[string]fileText{}
	for _, f := range schemaFiles {
		src.schemas[f.URI] = fileText{name: f.Path, data: f.Data}
	}
	engine, err := judge.New(opts...)
	if err != nil {
		return err
	}
	res, err := validateRequest(ctx, engine, req, src)
	if err != nil {
		return err
	}

	format := params.format.value
	if format == "" {
		format = formatJSON
		if isTerminal(out) {
			format = formatText
		}
	}
	if format == formatText {
		err = result.WriteText(out, withFlagHints(res))
	} else {
		err = result.WriteJSON(out, res)
	}
	if err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	warnModelFailed(params.stderr, res)
	return verdict(res, params.minQuality, params.minConf)
}

// validateRequest validates req with engine; a *judge.RequestError
// becomes bad input that points into the files src names.
func validateRequest(ctx context.Context, engine *judge.Engine, req *judge.Request, src *origins) (*result.ValidationResult, error) {
	res, err := engine.Validate(ctx, req)
	if err != nil {
		var re *judge.RequestError
		if errors.As(err, &re) {
			return nil, badInput(errors.New(src.describe(re) + requestFlagHint(re)))
		}
		return nil, err
	}
	return res, nil
}

// warnModelFailed says on w (when not nil) that the configured model
// failed to judge criteria, so that a run that still passes on the
// deterministic checks does not pass quietly.
func warnModelFailed(w io.Writer, res *result.ValidationResult) {
	if w == nil {
		return
	}
	var first string
	n := 0
	for _, is := range res.Issues {
		if is.Rule == criteria.RuleModelFailed {
			if n == 0 {
				first = is.Message
			}
			n++
		}
	}
	if n == 0 {
		return
	}
	plural := "criterion"
	if n > 1 {
		plural = "criteria"
	}
	fmt.Fprintf(w, "judge: warning: the configured model did not judge %d %s (not checked, never counted as passed): %s\n", n, plural, first)
}

// DefaultMinConfidence is the lowest confidence with which judge validate
// exits 0: at least half of what was asked was decided.
const DefaultMinConfidence = 0.5

// verdict is the outcome of a written result: nil when it is valid with a
// quality score of at least minQuality and a confidence of at least minConf,
// else an *exitError with status 1, silent when the result is invalid (it
// says why itself).
func verdict(res *result.ValidationResult, minQuality, minConf float64) error {
	switch {
	case !res.Valid:
		return &exitError{code: exitInvalid}
	case res.Confidence < minConf:
		return &exitError{code: exitInvalid, err: fmt.Errorf("confidence %.2f is below --min-confidence %.2f: too few of the requested checks could be decided to pass the output (see the not_checked and layer_failed notes)", res.Confidence, minConf)}
	case res.QualityScore < minQuality:
		return &exitError{code: exitInvalid, err: fmt.Errorf("quality score %v is below --min-quality %v", res.QualityScore, minQuality)}
	}
	return nil
}

// buildRequest reads the files the flags name into a request, and records
// where each part came from so that errors can point into the files.
func buildRequest(params validateParams, args []string) (*judge.Request, *origins, error) {
	src := &origins{}
	name := "-"
	if len(args) > 0 {
		name = args[0]
	}
	data, display, err := readInput(name, len(args) == 0, params.stdin)
	if err != nil {
		return nil, nil, err
	}
	if off := jsonvalue.FirstInvalidUTF8(data); off >= 0 {
		line, col := jsonvalue.Position(data, int64(off))
		return nil, nil, badInputf("%s:%d:%d: the output is not valid UTF-8 (byte 0x%02x at byte offset %d); judge does not replace bytes it cannot read, since that would change what is validated (lengths, patterns)",
			display, line, col, data[off], off)
	}
	if err := checkJSONOutput(name, display, data, params.schema != ""); err != nil {
		return nil, nil, err
	}
	src.output = fileText{name: display, data: data}
	req := &judge.Request{Output: readOutput(data)}
	if err := addRequestParts(params, req, src); err != nil {
		return nil, nil, err
	}
	return req, src, nil
}

// addRequestParts adds to req, and to src where they came from, every
// part of the request but the output: the options, the validation types,
// the schema, the criteria, the rules' context and the sources.
func addRequestParts(params validateParams, req *judge.Request, src *origins) error {
	var err error
	req.Options = judge.Options{
		OutputMode:   params.outputMode.value,
		AssertFormat: params.assertFormat,
		Quality:      params.quality,
	}
	for _, t := range params.types {
		if t = strings.TrimSpace(t); t != "" {
			req.ValidationTypes = append(req.ValidationTypes, t)
		}
	}
	if params.schema != "" {
		data, err := readJSONFile(params.schema, "schema", judge.MaxSchemaFileBytes)
		if err != nil {
			return err
		}
		src.schema = fileText{name: params.schema, data: data}
		req.ExpectedSchema = json.RawMessage(data)
	}
	for i, text := range params.criteria {
		if strings.TrimSpace(text) == "" {
			return badInputf("--criteria #%d is empty", i+1)
		}
		req.AcceptanceCriteria = append(req.AcceptanceCriteria, layer.Criterion{Description: text})
		src.criteria = append(src.criteria, criterionOrigin{flag: i + 1})
	}
	if params.rules != "" {
		data, rules, offsets, err := readRules(params.rules)
		if err != nil {
			return err
		}
		for i, c := range rules {
			req.AcceptanceCriteria = append(req.AcceptanceCriteria, c)
			src.criteria = append(src.criteria, criterionOrigin{
				file: fileText{name: params.rules, data: data}, index: i, offset: offsets[i], id: c.ID,
			})
		}
	}
	if params.context != "" {
		data, err := readJSONFile(params.context, "context", maxInputBytes)
		if err != nil {
			return err
		}
		src.context = fileText{name: params.context, data: data}
		req.Context = json.RawMessage(data)
	}
	if len(params.sources) > 0 {
		if req.Sources, err = readSources(params.sources); err != nil {
			return err
		}
	}
	req.TrustedSources = params.trusted
	return nil
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// enumFlag is a string flag that takes one of a fixed set of values.
type enumFlag struct {
	value   string
	allowed []string
}

func newEnumFlag(def string, allowed ...string) *enumFlag {
	return &enumFlag{value: def, allowed: allowed}
}

func (f *enumFlag) String() string { return f.value }

func (f *enumFlag) Set(s string) error {
	for _, a := range f.allowed {
		if s == a {
			f.value = s
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", s, strings.Join(f.allowed, ", "))
}

func (f *enumFlag) Type() string { return strings.Join(f.allowed, "|") }
