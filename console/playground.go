package console

import (
	_ "embed"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"github.com/agentjudge/judge/examples"
)

//go:embed assets/playground.html
var playgroundHTML string

//go:embed assets/playground.js
var playgroundJS string

//go:embed assets/locate.js
var locateJS string

// PlaygroundOptions configure the playground.
type PlaygroundOptions struct {
	// Types are the validation types the server runs (its engine's
	// layers), offered as the layers to run.
	Types []string
	// MaxBodyBytes is the largest request body the server takes; the page
	// says so and refuses a larger request before sending it. 0 states no
	// limit on the page (the server still has its own).
	MaxBodyBytes int64
}

// example is one example of examples/ that the playground loads with one
// click: the files of its fields, by their path in examples.FS.
type example struct {
	Label                            string
	Output, Schema, Criteria, Source string
	Types                            []string
}

// playgroundExamples are the examples offered, as the examples' README
// runs them with judge validate.
func playgroundExamples() []example {
	return []example{
		{Label: "Ticket triage: schema and rules", Output: "ticket.json", Schema: "ticket.schema.json", Criteria: "ticket.rules.json"},
		{Label: "Ticket triage, fixed", Output: "ticket-fixed.json", Schema: "ticket.schema.json", Criteria: "ticket.rules.json"},
		{Label: "Answer with a JSON fence", Output: "answer.md", Schema: "ticket.schema.json"},
		{Label: "Facts against a source", Output: "ticket-fixed.json", Schema: "ticket.schema.json", Source: "sources/incident-4411.md", Types: []string{"schema", "facts"}},
		{Label: "Code quality", Output: "code-answer.md", Types: []string{"quality"}},
	}
}

// loadedExample is an example with its files read, as the page's
// buttons carry it.
type loadedExample struct {
	Label, Files                     string
	Output, Schema, Criteria, Source string
	Types                            string
}

// loadExamples reads the files of the examples from fsys.
func loadExamples(fsys fs.FS) ([]loadedExample, error) {
	var out []loadedExample
	for _, ex := range playgroundExamples() {
		le := loadedExample{Label: ex.Label, Types: strings.Join(ex.Types, ",")}
		var files []string
		for _, f := range []struct {
			name string
			dst  *string
		}{{ex.Output, &le.Output}, {ex.Schema, &le.Schema}, {ex.Criteria, &le.Criteria}, {ex.Source, &le.Source}} {
			if f.name == "" {
				continue
			}
			data, err := fs.ReadFile(fsys, f.name)
			if err != nil {
				return nil, fmt.Errorf("console: example %q: %w", ex.Label, err)
			}
			*f.dst = string(data)
			files = append(files, "examples/"+f.name)
		}
		le.Files = strings.Join(files, ", ")
		out = append(out, le)
	}
	return out, nil
}

// playgroundData is what the playground page is rendered from.
type playgroundData struct {
	Shell        shell
	Types        []string
	MaxBodyBytes int64
	// MaxBodyText is MaxBodyBytes for a person.
	MaxBodyText string
	Examples    []loadedExample
}

// playground is the playground page, rendered once: it holds no data of
// the server's, only its options and the examples.
type playground struct {
	page []byte
	csp  string
}

// Playground returns the handler of the playground page, to be served at
// "GET /{$}" of judge serve, beside the API it posts to (/validate). The
// page is the same for everyone and holds no data: it can be served
// without the API key, which the page asks for when the API answers 401.
func Playground(opts PlaygroundOptions) (http.Handler, error) {
	exs, err := loadExamples(examples.FS)
	if err != nil {
		return nil, err
	}
	t, err := parseShell(playgroundHTML)
	if err != nil {
		return nil, err
	}
	data := playgroundData{Shell: newShell("/", "Playground", "", locateJS, playgroundJS), Types: opts.Types, MaxBodyBytes: opts.MaxBodyBytes,
		MaxBodyText: sizeText(opts.MaxBodyBytes), Examples: exs}
	page, err := renderPage(t, "playground", data)
	if err != nil {
		return nil, err
	}
	return &playground{page: page, csp: data.Shell.HeaderCSP}, nil
}

// ServeHTTP writes the page.
func (p *playground) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	writePage(w, r, p.csp, p.page)
}

// sizeText writes n bytes for a person: "10 MiB", "512 KiB", "300 bytes".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
