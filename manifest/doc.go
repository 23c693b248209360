// Package manifest loads tool manifests into a [Registry] and lints them:
// every finding is a result.Issue in one ValidationResult per tool, with
// its location as file:line:column.
//
// # Loading
//
// [LoadDirs] reads directories (the CLI's default is .ai/tools) and
// [LoadFiles] reads files given by content (the HTTP API). A tool is one of:
//
//   - a directory holding tool.yaml (or tool.yml) and the tool's files;
//   - a single NAME.yaml (or .yml) file that is the whole tool;
//   - a script (.py, .sh, .js, .ts, .go, … or any file starting with #!)
//     carrying its metadata: a YAML block in a Python module docstring or
//     in the leading # (or //) comment header, and Python module constants
//     such as __tool_type__, __version__ and __executor_id__;
//   - a Markdown file with YAML frontmatter: a knowledge entry;
//   - a Markdown file with a ```xml fence holding <directive>, or an .xml
//     file: a directive.
//
// Other files are ignored, and a directory without tool.yaml is searched
// for tools (at most [MaxDirDepth] levels). Symbolic links are never
// followed. "executor" and "executor_id" are the same field.
//
// # Linting
//
// [Lint] validates every tool by its tool_type, never by its file's
// extension: layer 1 checks tool_id (pattern and uniqueness), tool_type,
// version (a semantic version), description and the executor rule; layer 2
// the rules of the type (script, api, mcp_tool, mcp_server, runtime,
// primitive, knowledge, directive); then the executor graph (every chain
// ends in a primitive, cycles are printed as a -> b -> a), the parameters'
// JSON Schema against its meta-schema, and what model providers would
// reject (warnings of type provider_incompatible). [LintMCP] applies the
// same parameter and provider checks to MCP tools/list definitions.
//
// # Registry conventions
//
// Registries written in their own conventions are read as they are: a
// manifest without tool_id takes its id from its category and file name
// (or its path), executors may be named by path or as @primitive,
// config_schema is the parameter schema, an mcp_server with a null executor
// is configuration, and signature headers are verified where the hash can
// be recomputed. A [RegistryFile] declares a registry's own types (aliases
// of a base kind), host primitives and extra fields; see [Conventions].
// [Scaffold], [PlanMigrations] and [Export] serve judge tools new, migrate
// and export.
//
// A Registry and its Tools are read-only once loaded and safe for
// concurrent use; Lint never changes them. See docs/manifests.md.
package manifest
