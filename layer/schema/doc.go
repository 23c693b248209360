// Package schema defines the layer that validates an output against the
// expected JSON Schema of the request, and the [Location] notation in which
// judge writes paths into JSON values.
//
// # Layer schema
//
// schema: validate the output against the expected JSON Schema
//
// The layer applies when the request carries an expected schema. It
// compiles the schema once per content (a SHA-256 of the schema, the local
// schemas and assert_format, cached in the engine's layer cache, failures
// included) and validates the output with
// github.com/santhosh-tekuri/jsonschema/v6. Each validation records one
// check of certainty 1: the verdict is deterministic.
//
// Drafts 4, 6, 7, 2019-09 and 2020-12 are honoured through $schema; a
// schema that names none is read as draft-07. A local schema without
// $schema is read in the draft of the expected schema. "format" is
// asserted as each draft prescribes (drafts 4 to 7 assert it, 2019-09 and
// 2020-12 treat it as an annotation unless the meta-schema requires the
// format-assertion vocabulary); the assert_format option asserts it for
// every draft; unknown formats are ignored. "pattern" and "format": "regex"
// use Go's RE2 syntax: a pattern with a lookaround, a backreference or a
// repetition count above 1000, valid in JSON Schema, makes the schema
// rejected with a message that says so. Content keywords (contentEncoding,
// contentMediaType, contentSchema) are annotations.
//
// A $ref to another document resolves only against the local schemas of
// the request (its "schemas", or --schemas DIR), each found under its key
// and also under its absolute $id; a local schema nothing refers to is
// never read. A relative key resolves against the
// base URI of the expected schema: its absolute $id, else [BaseURI]. The
// meta-schemas of the five drafts are built in. Nothing is ever fetched: a
// $ref to anything else, file:// included, makes the schema invalid.
//
// An invalid schema — one that fails its meta-schema, has a bad regular
// expression, a $ref that resolves to nothing, a $ref cycle (a chain of
// $ref, not, if, or first alternatives of allOf, anyOf and oneOf that leads
// back to where it started for the same value with nothing on the way that
// could stop it), or nests more than [MaxSchemaDepth] levels — is not an
// issue of the output: Run
// returns a *layer.InputError whose Location points into the request
// ("expected_schema/properties/age/minimum",
// `schemas["common.json"]/$defs/id`) and the request is rejected.
//
// Every failed keyword of the output becomes one issue of severity error,
// with Rule "schema.<keyword>" and Location in the notation of [Location]:
//
//	required                          missing_field, one per missing field, at the object
//	type                              invalid_type
//	enum, const, minimum, maximum,    constraint_violation, naming the constraint,
//	exclusiveMinimum/Maximum,         the limit and the actual value
//	multipleOf, minLength, maxLength,
//	pattern, format, minItems,
//	maxItems, uniqueItems, contains,
//	min/maxContains, minProperties,
//	maxProperties, propertyNames,
//	additionalProperties (one per
//	extra field, at the field),
//	additionalItems, dependencies,
//	dependentRequired
//	anything else (not, false         schema_violation
//	schemas, unevaluatedProperties,
//	unevaluatedItems, oneOf matched
//	twice)
//
// Run composes at most [MaxIssues] such issues, the first in the order of
// the output (array items by index, object keys sorted); past them it only
// counts failed keywords, and adds one info issue of type not_checked with
// Rule "schema.truncated": "999501 more schema errors were not reported:
// only the first 499 are listed".
//
// allOf and $ref are walked through: their failures are reported where they
// happen. An anyOf or oneOf none of whose alternatives match is judged as a
// whole. An alternative is ruled out when the value fails it at the top:
// wrong type, const or enum, a false schema, or a const or enum on a direct
// property (a discriminator such as "kind": "circle"). When exactly one
// alternative is left, the value was meant for it, and its issues are
// reported as if it stood alone. When every alternative is ruled out by
// type, one invalid_type issue lists the accepted types ("has type boolean,
// expected string or integer"). Otherwise one schema_violation issue names
// each alternative by its title, definition name or type, with the first
// reason the value fails it.
package schema
