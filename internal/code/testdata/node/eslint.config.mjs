// ESLint configuration of internal/code's differential test: the
// complexity rule alone, at threshold 0 so that every function is reported,
// with inline directives ignored so that no function of the corpus hides.
export default [
	{
		files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
		languageOptions: { ecmaVersion: "latest", sourceType: "commonjs" },
		linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: "off" },
		rules: { complexity: ["error", 0] },
	},
];
