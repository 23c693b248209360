package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"

	"github.com/agentjudge/judge/result"
)

// signature is a manifest's signature header: a first-line comment (after
// a shebang) "# NAME:signed:TIMESTAMP:HASH:SIGNATURE:KEY" or
// "# NAME:validated:TIMESTAMP:HASH".
type signature struct {
	line   int    // 1-based line of the header
	name   string // the signer's scheme name: rye, ryeos, kiwi-mcp, …
	kind   string // signed or validated
	hash   string // the content hash as written
	actual string // sha256 of the file without the shebang and header lines
}

// signatureLine matches a signature header line.
var signatureLine = regexp.MustCompile(`^(?:#|//) ?([A-Za-z][A-Za-z0-9_.-]*):(signed|validated):(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z):([^:\s]+)(?::\S*)?\s*$`)

// hexHash is a SHA-256 digest in hex.
var hexHash = regexp.MustCompile(`^[a-f0-9]{64}$`)

// hashSchemes are the signers judge knows to hash the content so: SHA-256
// of the file without its shebang and signature lines (rye and its
// predecessor kiwi-mcp compute it so). Any other scheme is taken to hash
// so when its header verifies by that rule on at least minSchemeProof of
// the registry's other files (see checker.recomputable).
var hashSchemes = map[string]bool{"rye": true, "kiwi-mcp": true}

// minSchemeProof is how many other files of a registry must verify by the
// rye rule for a scheme judge does not know to be recomputed.
const minSchemeProof = 2

// recomputable reports whether the hash of s, the tool's header, is
// SHA-256 of what follows the header line: the scheme is known, or
// verifies so on at least minSchemeProof other files of the registry.
func (c *checker) recomputable(s *signature) bool {
	if hashSchemes[s.name] {
		return true
	}
	others := c.run.sigOK[s.name]
	if s.hash == s.actual {
		others--
	}
	return others >= minSchemeProof
}

// findSignature finds the signature header of src and returns it with
// src where the header line is blanked (so that line numbers stay).
func findSignature(src []byte) (*signature, []byte) {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	line := 1
	var shebang []byte
	if bytes.HasPrefix(first, []byte("#!")) {
		shebang = src[:len(first)+1]
		if len(rest) == 0 && len(first) == len(src) {
			return nil, src
		}
		first, rest, _ = bytes.Cut(rest, []byte("\n"))
		line = 2
	}
	m := signatureLine.FindSubmatch(bytes.TrimRight(first, "\r"))
	if m == nil {
		return nil, src
	}
	// Neither the shebang nor the header is hashed: only what follows.
	sum := sha256.Sum256(rest)
	s := &signature{line: line, name: string(m[1]), kind: string(m[2]), hash: string(m[4]), actual: hex.EncodeToString(sum[:])}
	blank := make([]byte, 0, len(src))
	blank = append(blank, shebang...)
	blank = append(blank, '\n')
	blank = append(blank, rest...)
	return s, blank
}

// checkSignature reports a stale signature (the file changed after it
// was signed) or, when the hash cannot be recomputed, one not_checked.
func (c *checker) checkSignature() {
	s := c.sig
	if s == nil {
		return
	}
	at := Pos{s.line, 1}
	switch {
	case hexHash.MatchString(s.hash) && s.hash == s.actual:
		// The content is what was signed. The signature itself needs the
		// signer's key, which judge does not hold.
	case hexHash.MatchString(s.hash) && c.recomputable(s):
		why := ""
		if !hashSchemes[s.name] {
			why = fmt.Sprintf(" (%d other files of the registry verify by the %s scheme's hash, SHA-256 of what follows the header)", c.run.sigOK[s.name], s.name)
		}
		c.report(result.Warning, result.ConstraintViolation, "manifest.signature_stale", at,
			"Re-sign the file with its registry's sign tool, or revert the edit",
			"%s: the %s:%s header's content hash %s… does not match the file (%s…): the manifest was edited after it was signed%s",
			c.Path, s.name, s.kind, s.hash[:12], s.actual[:12], why)
	case !hexHash.MatchString(s.hash):
		c.report(result.Info, result.NotChecked, "manifest.signature", at,
			"Sign the file with its registry's sign tool to record its content hash",
			"The %s:%s header holds no content hash ('%s'), so whether the file changed since was not checked",
			s.name, s.kind, result.Clip(s.hash, 40))
	default:
		c.report(result.Info, result.NotChecked, "manifest.signature", at,
			"Nothing to do; judge checks the hash of the rye and kiwi-mcp schemes, and of a scheme whose hash verifies as theirs on at least two other files of the registry",
			"The %s:%s header's content hash was not checked: judge does not know how the %s scheme computes it (it is not SHA-256 of what follows the header on at least %d other files)",
			s.name, s.kind, s.name, minSchemeProof)
	}
}
