package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/strictschema"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// maxSchemaBytes is the largest schema file judge schema reads.
const maxSchemaBytes = 10 << 20

// schemaParams are the flags of judge schema strict and response-format.
type schemaParams struct {
	name  string    // --name: the response format's name
	stdin io.Reader // where "-" reads from
	// assertFormat is explain's --assert-format: the path of requests with
	// options.assert_format.
	assertFormat bool
}

func newSchemaParams() schemaParams {
	return schemaParams{}
}

func initSchema(root *cobra.Command) {
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Rewrite JSON Schemas for LLM providers' structured output",
		Long: `Rewrite a JSON Schema for an LLM provider's structured outputs.

judge schema strict FILE prints the subset that OpenAI's strict structured
outputs accept: every property required (optional ones as a union with
null), additionalProperties false on every object, and no keyword strict
mode rejects. What the strict schema no longer enforces is listed on
stderr, one line each; the schema goes to stdout.

judge schema response-format --name N FILE prints that strict schema inside
the response_format object of a chat completion request.

See docs/strict-schema.md.`,
	}
	strictParams := newSchemaParams()
	strict := &cobra.Command{
		Use:   "strict FILE|-",
		Short: "Print the strict-mode form of a JSON Schema",
		Example: `  judge schema strict examples/ticket.schema.json
  judge schema strict - < schema.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			strictParams.stdin = cmd.InOrStdin()
			return runSchemaStrict(cmd.Context(), strictParams, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	rfParams := newSchemaParams()
	rf := &cobra.Command{
		Use:   "response-format --name N FILE|-",
		Short: "Print the OpenAI response_format object for a JSON Schema",
		Long: `Print the response_format object of a chat completion request that asks
for output matching the schema in FILE:
{"type": "json_schema", "json_schema": {"name": N, "schema": <strict schema>, "strict": true}}.
N is 1 to 64 letters, digits, '_' or '-'.`,
		Example: `  judge schema response-format --name ticket examples/ticket.schema.json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rfParams.stdin = cmd.InOrStdin()
			return runSchemaResponseFormat(cmd.Context(), rfParams, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	rf.Flags().StringVar(&rfParams.name, "name", "", "the response format's name (required)")
	res := &cobra.Command{
		Use:   "result",
		Short: "Print the JSON Schema of the ValidationResult",
		Long: `Print the JSON Schema of the ValidationResult, exactly as the specification
gives it and as every result judge produces is checked against. Pipe it into
strict or response-format to ask a model for a ValidationResult.`,
		Example: `  judge schema result
  judge schema result | judge schema response-format --name validation_result -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSchemaResult(cmd.OutOrStdout())
		},
	}
	explainParams := newSchemaParams()
	explain := &cobra.Command{
		Use:   "explain FILE|-",
		Short: "Say whether a JSON Schema takes the compiled fast path, and why not",
		Long: `Say which path judge validates documents against the schema in FILE on.
On the fast path, the schema is compiled into checks that run on a
document's bytes: a valid document is answered without decoding it, an
invalid one gets its issues from the full validator. A schema that uses a
keyword the fast path does not cover (unevaluatedProperties, $dynamicRef,
contentSchema...) takes the full validator for every document; explain
names the first such keyword and where it is. Exits 0 either way.`,
		Example: `  judge schema explain examples/ticket.schema.json
  judge schema explain --assert-format - < schema.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			explainParams.stdin = cmd.InOrStdin()
			return runSchemaExplain(cmd.Context(), explainParams, args, cmd.OutOrStdout())
		},
	}
	explain.Flags().BoolVar(&explainParams.assertFormat, "assert-format", false, "explain the path of requests with options.assert_format")
	cmd.AddCommand(strict, rf, res, explain)
	root.AddCommand(cmd)
}

// runSchemaStrict writes the strict form of the schema in args[0] to out
// and what it loses to errOut.
func runSchemaStrict(_ context.Context, params schemaParams, args []string, out, errOut io.Writer) error {
	doc, name, err := readSchema(params, args[0])
	if err != nil {
		return err
	}
	s, losses, err := strictschema.Strict(doc)
	if err != nil {
		return schemaError(name, err)
	}
	return writeSchema(out, errOut, name, s, losses)
}

// runSchemaResponseFormat writes the response_format object of the schema
// in args[0] to out and what it loses to errOut.
func runSchemaResponseFormat(_ context.Context, params schemaParams, args []string, out, errOut io.Writer) error {
	if params.name == "" {
		return badInputf("--name is required: the response format's name, 1 to 64 letters, digits, '_' or '-'")
	}
	doc, name, err := readSchema(params, args[0])
	if err != nil {
		return err
	}
	rf, losses, err := strictschema.NewResponseFormat(params.name, doc)
	if err != nil {
		var ne *strictschema.NameError
		if errors.As(err, &ne) {
			return badInputf("--name: %v", err)
		}
		return schemaError(name, err)
	}
	return writeSchema(out, errOut, name, rf, losses)
}

// runSchemaExplain writes which path the schema in args[0] takes, and why.
func runSchemaExplain(_ context.Context, params schemaParams, args []string, out io.Writer) error {
	doc, name, err := readSchema(params, args[0])
	if err != nil {
		return err
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return schemaError(name, err)
	}
	v, err := schema.Compile(raw, schema.Options{AssertFormat: params.assertFormat})
	if err != nil {
		return schemaError(name, err)
	}
	if fast, n, why := v.Path(); fast {
		_, err = fmt.Fprintf(out, "%s: fast path: compiled into checks of %d (sub)schemas that run on the document's bytes; valid documents need no decoding, invalid ones get their issues from the full validator\n", name, n)
	} else {
		_, err = fmt.Fprintf(out, "%s: slow path: %s, which the fast path does not cover, so every document is decoded and checked by the full validator\n", name, why)
	}
	if err != nil {
		return fmt.Errorf("writing the explanation: %w", err)
	}
	return nil
}

// runSchemaResult writes the embedded ValidationResult schema to out.
func runSchemaResult(out io.Writer) error {
	if _, err := out.Write(result.SchemaJSON()); err != nil {
		return fmt.Errorf("writing the schema: %w", err)
	}
	return nil
}

// readSchema reads and decodes the schema file name ("-" is stdin).
func readSchema(params schemaParams, name string) (any, string, error) {
	var data []byte
	var err error
	display := name
	if name == "-" {
		display = "<stdin>"
		if params.stdin == nil {
			return nil, display, badInputf("no schema: stdin is closed")
		}
		data, err = readLimited(params.stdin, display, "schema", maxSchemaBytes)
	} else {
		data, err = readFile(name, "schema", maxSchemaBytes)
	}
	if err != nil {
		return nil, display, err
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	doc, err := jsonvalue.Decode(data, 0)
	if err != nil {
		return nil, display, badInput(jsonFileError(display, "schema", data, err))
	}
	return doc, display, nil
}

func schemaError(name string, err error) error {
	return badInputf("%s: %v", name, err)
}

// writeSchema writes v as indented JSON to out, and each loss to errOut as
// "judge: warning: FILE#POINTER: KEYWORD: REASON".
func writeSchema(out, errOut io.Writer, name string, v any, losses []strictschema.Loss) error {
	b, err := strictschema.MarshalIndent(v)
	if err != nil {
		return err
	}
	if _, err := out.Write(b); err != nil {
		return fmt.Errorf("writing the schema: %w", err)
	}
	for _, l := range losses {
		fmt.Fprintf(errOut, "judge: warning: %s%s\n", name, l)
	}
	return nil
}
