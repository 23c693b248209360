package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/strictschema"
	"github.com/agentjudge/judge/result"
)

// maxSchemaBytes is the largest schema file judge schema reads.
const maxSchemaBytes = 10 << 20

// schemaParams are the flags of judge schema strict and response-format.
type schemaParams struct {
	name  string    // --name: the response format's name
	stdin io.Reader // where "-" reads from
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
	cmd.AddCommand(strict, rf, res)
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

// runSchemaResult writes the embedded ValidationResult schema to out.
func runSchemaResult(out io.Writer) error {
	if _, err := out.Write(result.SchemaJSON); err != nil {
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
