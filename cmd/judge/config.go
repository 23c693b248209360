package main

import (
	"errors"
	"fmt"
	"github.com/agentjudge/judge/toolcall"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/config"
	"github.com/agentjudge/judge/manifest"
)

// configFlag is the root command's persistent flag naming the config file.
const configFlag = "config"

// addConfigFlag adds --config to root, for every command.
func addConfigFlag(root *cobra.Command) {
	root.PersistentFlags().String(configFlag, "",
		"config file (YAML; default $"+config.EnvConfig+", else $XDG_CONFIG_HOME/judge/config.yaml when it exists); flags and JUDGE_LLM_* override it; see docs/config.md")
}

// configFlagValue is the value of --config for cmd, "" when not given.
func configFlagValue(cmd *cobra.Command) string {
	if f := cmd.Flag(configFlag); f != nil {
		return f.Value.String()
	}
	return ""
}

// loadConfig finds and reads the config file: the one flag names (the
// --config flag), else JUDGE_CONFIG's, else the default file when it
// exists, reading the environment through getenv (os.Getenv when nil). It
// returns nil, and no error, when no file applies. A named file that is
// missing, or any file that is malformed, is bad input. Warnings (an API
// key readable by others) are written to warn, when not nil.
func loadConfig(flag string, getenv func(string) string, warn io.Writer) (*config.File, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	path, named := config.Find(flag, getenv)
	if path == "" {
		return nil, nil
	}
	f, err := config.Load(path)
	if err != nil {
		if named && errors.Is(err, fs.ErrNotExist) {
			by := "--config"
			if flag == "" {
				by = config.EnvConfig
			}
			return nil, badInputf("%v (named by %s)", err, by)
		}
		return nil, badInput(err)
	}
	if warn != nil {
		for _, w := range configWarnings(f, getenv) {
			fmt.Fprintf(warn, "judge: warning: %s\n", w)
		}
	}
	return f, nil
}

// configWarnings are the warnings of the config file f read with the
// environment of getenv: a key readable by others, a key not sent.
func configWarnings(f *config.File, getenv func(string) string) []string {
	if f == nil {
		return nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	w := f.Warnings
	if note := f.KeyNotSent(getenv); note != "" {
		w = append(w[:len(w):len(w)], note)
	}
	return w
}

// modelOption is the engine option of the model configured by the
// environment read through getenv (os.Getenv when nil) over the config
// file f (nil for none), or nil when neither configures one; a half or
// malformed configuration is bad input, located in the file when the file
// gave the value.
func modelOption(f *config.File, getenv func(string) string) (judge.Option, error) {
	cfg, ok, err := llmConfigOf(f, getenv)
	if !ok || err != nil {
		return nil, err
	}
	return judge.WithLLM(cfg), nil
}

// llmConfigOf is the model's configuration as modelOption reads it; ok is
// false when none is configured.
func llmConfigOf(f *config.File, getenv func(string) string) (judge.LLMConfig, bool, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg, ok, err := f.LLMConfig(getenv)
	if err != nil {
		return cfg, false, badInput(err)
	}
	return cfg, ok, nil
}

// callModelOptions are the tool-call checker's options for the model
// configured as modelOption reads it: with one, goals the deterministic
// check cannot decide are put to it.
func callModelOptions(f *config.File, getenv func(string) string) ([]toolcall.Option, error) {
	cfg, ok, err := llmConfigOf(f, getenv)
	if !ok || err != nil {
		return nil, err
	}
	opt, err := toolcall.WithLLM(cfg)
	if err != nil {
		return nil, badInput(err)
	}
	return []toolcall.Option{opt}, nil
}

// applyConfig fills the flags of judge serve that were not given with the
// serve section of f (nil for none): flags win over the file.
func (p *serveParams) applyConfig(f *config.File) {
	if f == nil {
		return
	}
	s := f.Serve
	if s.Addr.Set() && !p.changed["addr"] {
		p.addr = s.Addr.Value
		p.addrFrom = fmt.Sprintf("%s:%d:%d: serve.addr", f.Path, s.Addr.Pos.Line, s.Addr.Pos.Col)
	}
	if s.Schemas.Set() && !p.changed["schemas"] {
		p.schemasDir = s.Schemas.Value
	}
	if s.Sources.Set() && !p.changed["sources"] {
		p.sourcesDir = s.Sources.Value
	}
	setInt := func(flag string, v config.Int, dst *int64) {
		if v.Set() && !p.changed[flag] {
			*dst = v.Value
		}
	}
	setInt("cache-bytes", s.CacheBytes, &p.cacheBytes)
	setInt("max-in-flight-bytes", s.MaxInFlightBytes, &p.maxInFlightBytes)
	setInt("max-body-bytes", s.MaxBodyBytes, &p.maxBodyBytes)
	if s.MaxInFlight.Set() && !p.changed["max-in-flight"] {
		p.maxInFlight = int(min(s.MaxInFlight.Value, 1<<30))
	}
	if s.NoUI.Set() && !p.changed["no-ui"] {
		p.noUI = s.NoUI.Value
	}
	if s.ReadTimeout.Set() && !p.changed["read-timeout"] {
		p.readTimeout = s.ReadTimeout.Value
	}
	if len(s.Tools) > 0 && !p.changed["tools"] {
		p.tools = nil
		for _, t := range s.Tools {
			p.tools = append(p.tools, t.Value)
		}
	}
}

// changedFlags reports which of names were given on cmd's command line.
func changedFlags(cmd *cobra.Command, names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = cmd.Flags().Changed(n)
	}
	return m
}

// configRegistry reads the config file flag names (else JUDGE_CONFIG's,
// else the default file when it exists) for its registry section's
// declarations, writing the file's warnings to warn when not nil: what
// every command that loads tool manifests reads them with.
func configRegistry(flag string, getenv func(string) string, warn io.Writer) (manifest.Conventions, error) {
	cfg, err := loadConfig(flag, getenv, warn)
	if err != nil {
		return manifest.Conventions{}, err
	}
	return registryConventions(cfg)
}

// registryConventions are the declarations of the config file f's registry
// section (nil f, or no section, declares nothing), checked by the
// manifest package's rules: a base or executor rule it refuses is bad
// input at its line and column in the file. They are merged with each
// registry's own manifest.RegistryFile, whose declaration of a type wins.
func registryConventions(f *config.File) (manifest.Conventions, error) {
	var conv manifest.Conventions
	if f == nil || f.Registry.Empty() {
		return conv, nil
	}
	r := f.Registry
	at := func(s config.String, err error) error {
		return badInput(&config.Error{File: f.Path, Pos: s.Pos, Msg: "registry: " + err.Error(), Err: err})
	}
	for _, p := range r.Primitives {
		conv.Primitives = append(conv.Primitives, p.Value)
	}
	for _, fl := range r.Fields {
		conv.Fields = append(conv.Fields, fl.Value)
	}
	if r.RequiredSet {
		conv.Required, conv.RequiredFrom = []string{}, f.Path+" (registry.required)"
		for _, fl := range r.Required {
			conv.Required = append(conv.Required, fl.Value)
		}
	}
	for _, dd := range r.Data {
		if err := (manifest.Conventions{Data: []string{dd.Value}}).Check(); err != nil {
			return manifest.Conventions{}, at(dd, err)
		}
		conv.Data = append(conv.Data, strings.Trim(dd.Value, "/"))
	}
	for _, t := range r.Types {
		d := manifest.TypeDecl{Base: manifest.ToolType(t.Base.Value)}
		// The base alone first, so that the error stands at the value at fault.
		if err := d.Check(t.Name.Value); err != nil {
			pos := t.Base
			if manifest.ToolType(t.Name.Value).Valid() {
				pos = t.Name
			}
			return manifest.Conventions{}, at(pos, err)
		}
		d.Executor = t.Executor.Value
		if err := d.Check(t.Name.Value); err != nil {
			return manifest.Conventions{}, at(t.Executor, err)
		}
		for _, k := range t.Requires {
			d.Requires = append(d.Requires, k.Value)
		}
		if conv.Types == nil {
			conv.Types = map[string]manifest.TypeDecl{}
		}
		conv.Types[t.Name.Value] = d
	}
	return conv, nil
}
