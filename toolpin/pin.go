// Package toolpin pins the definitions of upstream MCP tools, and of
// their prompts and resources (ObserveKind): on first sight it records a
// hash of each tool's definition (name, description, input and output
// schemas, as canonical JSON), and afterwards reports a changed
// definition (the "rug pull"). Pins survive restarts in a [File]
// and cannot be dodged by renaming a tool or by announcing a new tool list:
// a new tool whose definition matches a pinned tool that vanished, or that
// appears on a server one of whose pinned tools vanished, is reported too.
//
// A Pinner is safe for concurrent use.
package toolpin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentjudge/judge/result"
)

// Rule ids of the findings.
const (
	RuleChanged  = "pin.changed"  // a pinned tool's definition changed
	RuleRenamed  = "pin.renamed"  // a new tool has the definition of a vanished one
	RuleReplaced = "pin.replaced" // a new tool appeared where a pinned one vanished
)

// Tool is one upstream tool's definition as pinned.
type Tool struct {
	Name         string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
}

// Pin is the record of one tool of one server.
type Pin struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Hash is the SHA-256 of the definition's canonical JSON, with the
	// name; Body the same without the name (to recognise a renamed tool).
	Hash string `json:"hash"`
	Body string `json:"body"`
	// FirstSeen is when the definition was pinned.
	FirstSeen time.Time `json:"first_seen"`
	// Vanished is set while the server no longer lists the tool.
	Vanished bool `json:"vanished,omitempty"`
	// Suspect, when not empty, is why the tool was reported on first
	// sight (pin.renamed, pin.replaced): it stays reported until the pin
	// file is reviewed and the field removed.
	Suspect string `json:"suspect,omitempty"`
	// SuspectMsg is the message of that report.
	SuspectMsg string `json:"suspect_message,omitempty"`
}

// Finding is a reported tool: the tool, the rule and the issue.
type Finding struct {
	Server, Tool string
	Rule         string
	Issue        result.Issue
}

// Store keeps the pins.
type Store interface {
	// Load returns every pin; none when the store is empty.
	Load(ctx context.Context) ([]Pin, error)
	// Save replaces the pins with pins.
	Save(ctx context.Context, pins []Pin) error
}

// Pinner checks tool lists against the pins of a Store.
type Pinner struct {
	store Store
	now   func() time.Time
	mu    sync.Mutex
	pins  map[string]*Pin // by server + "\x00" + tool
}

// New loads the pins of store.
func New(ctx context.Context, store Store) (*Pinner, error) {
	pins, err := store.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("toolpin: %w", err)
	}
	p := &Pinner{store: store, now: time.Now, pins: map[string]*Pin{}}
	for i := range pins {
		pn := pins[i]
		p.pins[key(pn.Server, pn.Tool)] = &pn
	}
	return p, nil
}

func key(server, tool string) string { return server + "\x00" + tool }

// Hash returns the hash of a definition with its name and without it.
func Hash(t Tool) (withName, body string) {
	canon := func(raw json.RawMessage) any {
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		var v any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if d.Decode(&v) != nil {
			return string(raw)
		}
		return v
	}
	// encoding/json sorts map keys: the encoding is canonical for equal
	// values.
	b, _ := json.Marshal(map[string]any{"description": t.Description, "inputSchema": canon(t.InputSchema), "outputSchema": canon(t.OutputSchema)})
	h := sha256.Sum256(b)
	body = hex.EncodeToString(h[:])
	n, _ := json.Marshal(t.Name)
	h = sha256.Sum256(append(append(n, 0), b...))
	return hex.EncodeToString(h[:]), body
}

// Observe checks the tool list of one server against the pins, pins what
// it sees for the first time, and saves the pins when they changed. It
// returns the findings, sorted by tool: a changed definition, a renamed
// one, a tool that replaced a vanished one. A finding is reported on every
// Observe until the pins are reviewed.
func (p *Pinner) Observe(ctx context.Context, server string, tools []Tool) ([]Finding, error) {
	return p.observe(ctx, server, KindTool, tools, true)
}

// Kinds of definitions pinned.
const (
	KindTool             = "tool"
	KindPrompt           = "prompt"
	KindResource         = "resource"
	KindResourceTemplate = "resource template"
)

// ObserveKind is Observe for the definitions of another kind than tools
// (KindPrompt, KindResource, KindResourceTemplate): each Tool is one
// definition, its Name what names it (a prompt's name, a resource's URI),
// its Description and InputSchema what a model is shown of it. They are
// pinned under the server "<server>/<kind>s" (a pin file's entries say
// which). complete says defs is the server's whole list of that kind; a
// part of it (one page of resources) is only checked against the pins,
// and no pin is counted vanished.
func (p *Pinner) ObserveKind(ctx context.Context, server, kind string, defs []Tool, complete bool) ([]Finding, error) {
	return p.observe(ctx, server, kind, defs, complete)
}

// pinServer is the server a kind's pins are kept under.
func pinServer(server, kind string) string {
	if kind == KindTool {
		return server
	}
	return server + "/" + strings.ReplaceAll(kind, " ", "-") + "s"
}

func (p *Pinner) observe(ctx context.Context, server, kind string, tools []Tool, complete bool) ([]Finding, error) {
	f := findingOf{server: server, kind: kind}
	server = pinServer(server, kind)
	p.mu.Lock()
	defer p.mu.Unlock()
	dirty := false
	seen := map[string]bool{}
	type fresh struct {
		t          Tool
		hash, body string
	}
	var news []fresh
	var out []Finding
	for _, t := range tools {
		seen[t.Name] = true
		hash, body := Hash(t)
		pn, ok := p.pins[key(server, t.Name)]
		if !ok {
			news = append(news, fresh{t, hash, body})
			continue
		}
		if pn.Vanished {
			pn.Vanished = false
			dirty = true
		}
		if pn.Suspect != "" {
			out = append(out, f.finding(t.Name, pn.Suspect, pn.SuspectMsg))
		}
		if pn.Hash != hash {
			out = append(out, f.finding(t.Name, RuleChanged,
				fmt.Sprintf("Upstream %s '%s' of server '%s' changed its definition since it was pinned on %s", kind, t.Name, f.server, pn.FirstSeen.UTC().Format(time.RFC3339))))
		}
	}
	// Pinned tools the server no longer lists.
	var gone []*Pin
	for _, pn := range p.pins {
		if complete && pn.Server == server && !seen[pn.Tool] {
			if !pn.Vanished {
				pn.Vanished = true
				dirty = true
			}
			gone = append(gone, pn)
		}
	}
	slices.SortFunc(gone, func(a, b *Pin) int { return cmpString(a.Tool, b.Tool) })
	for _, nw := range news {
		pn := &Pin{Server: server, Tool: nw.t.Name, Hash: nw.hash, Body: nw.body, FirstSeen: p.now().UTC()}
		for _, g := range gone {
			if g.Body == nw.body {
				pn.Suspect, pn.SuspectMsg = RuleRenamed, fmt.Sprintf("New upstream %s '%s' of server '%s' has the definition of the vanished pinned %s '%s': a rename", kind, nw.t.Name, f.server, kind, g.Tool)
				break
			}
		}
		if pn.Suspect == "" && len(gone) > 0 {
			pn.Suspect, pn.SuspectMsg = RuleReplaced, fmt.Sprintf("New upstream %s '%s' of server '%s' appeared while its pinned %s '%s' vanished", kind, nw.t.Name, f.server, kind, gone[0].Tool)
		}
		if pn.Suspect != "" {
			out = append(out, f.finding(nw.t.Name, pn.Suspect, pn.SuspectMsg))
		}
		p.pins[key(server, nw.t.Name)] = pn
		dirty = true
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return cmpString(a.Tool, b.Tool) })
	if dirty {
		if err := p.store.Save(ctx, p.list()); err != nil {
			return out, fmt.Errorf("toolpin: save: %w", err)
		}
	}
	return out, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// findingOf makes the findings on one server's definitions of one kind.
type findingOf struct{ server, kind string }

func (f findingOf) finding(name, rule, msg string) Finding {
	return Finding{Server: f.server, Tool: name, Rule: rule, Issue: result.Issue{
		Severity: result.Warning, Type: result.SecurityIssue, Rule: rule, Location: strings.ReplaceAll(f.kind, " ", "_") + "s." + name, Message: msg,
		Suggestion: "Review the " + f.kind + "'s new definition; if it is trusted, remove its entry from the pin file so that it is pinned again",
	}}
}

// Pins returns a copy of the pins, sorted by server and tool.
func (p *Pinner) Pins() []Pin {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.list()
}

func (p *Pinner) list() []Pin {
	out := make([]Pin, 0, len(p.pins))
	for _, pn := range p.pins {
		out = append(out, *pn)
	}
	slices.SortFunc(out, func(a, b Pin) int {
		if c := cmpString(a.Server, b.Server); c != 0 {
			return c
		}
		return cmpString(a.Tool, b.Tool)
	})
	return out
}

// MaxFileBytes is the largest pin file read.
const MaxFileBytes = 64 << 20

// File is a Store in a JSON file, written atomically (a temporary file in
// the same directory, renamed over the old one).
type File struct {
	Path string
}

type fileDoc struct {
	Version int   `json:"version"`
	Pins    []Pin `json:"pins"`
}

// Load reads the pins; a missing file holds none.
func (f File) Load(ctx context.Context) ([]Pin, error) {
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", f.Path, MaxFileBytes)
	}
	var doc fileDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: not a pin file: %w", f.Path, err)
	}
	if doc.Version != 1 {
		return nil, fmt.Errorf("%s: pin file version %d, want 1", f.Path, doc.Version)
	}
	return doc.Pins, nil
}

// Save writes the pins atomically.
func (f File) Save(ctx context.Context, pins []Pin) error {
	data, err := json.MarshalIndent(fileDoc{Version: 1, Pins: pins}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.Path)
}

// Memory is a Store that keeps the pins in memory: for tests and for a
// gateway without a pin file.
type Memory struct {
	mu   sync.Mutex
	pins []Pin
}

// Load returns the pins saved last.
func (m *Memory) Load(context.Context) ([]Pin, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.pins), nil
}

// Save keeps pins.
func (m *Memory) Save(_ context.Context, pins []Pin) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pins = slices.Clone(pins)
	return nil
}
