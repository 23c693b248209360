package code

// Metrics are the per-function figures of a source, as `judge metrics`
// prints them.
type Metrics struct {
	Language  Language          `json:"language"`
	Functions []FunctionMetrics `json:"functions"`
}

// FunctionMetrics are one function's figures.
type FunctionMetrics struct {
	// Name is as in [Function].
	Name string `json:"name"`
	// Line is the 1-based line the reference tool reports.
	Line int `json:"line"`
	// Complexity is the cyclomatic complexity.
	Complexity int `json:"complexity"`
	// Length is the number of lines the function spans.
	Length int `json:"length"`
}

// Metrics returns the figures of every function of f, in source order.
func (f *File) Metrics() Metrics {
	m := Metrics{Language: f.Lang, Functions: []FunctionMetrics{}}
	for _, fn := range f.Functions() {
		m.Functions = append(m.Functions, FunctionMetrics{Name: fn.Name, Line: fn.Line, Complexity: fn.Complexity, Length: fn.Length()})
	}
	return m
}

// ByExtension returns the language of a file name's extension: .py, .js,
// .mjs, .cjs, .jsx, .ts, .mts, .cts, .tsx, .go, .sh, .bash.
func ByExtension(name string) (Language, bool) {
	for i := len(name) - 1; i >= 0 && name[i] != '/'; i-- {
		if name[i] == '.' {
			ext := name[i+1:]
			if ext == "bash" || ext == "sh" {
				return Bash, true
			}
			return LookupLanguage(ext)
		}
	}
	return "", false
}
