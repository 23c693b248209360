// ESLint configuration of internal/code's differential test: the
// complexity rule alone, at threshold 0 so that every function is reported,
// with inline directives ignored so that no function of the corpus hides.
// TypeScript is read with the typescript-eslint parser.
import tsParser from "@typescript-eslint/parser";

const common = {
	linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: "off" },
	rules: { complexity: ["error", 0] },
};

export default [
	{
		files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
		languageOptions: { ecmaVersion: "latest", sourceType: "commonjs" },
		...common,
	},
	{
		files: ["**/*.ts"],
		languageOptions: { parser: tsParser, ecmaVersion: "latest", sourceType: "module" },
		...common,
	},
];
