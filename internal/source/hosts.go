package source

import (
	"regexp"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

// hostRE finds the host of every web address in a text, nested ones too
// (an archive's address holding the page's own: "https://web.archive.org/
// web/2018/https://music.avclub.com/..."): after "://" or a leading
// "www.".
var hostRE = regexp.MustCompile(`(?i)(?:://|\bwww\.)([a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)+)`)

// hostLabels returns the labels of the hosts of the web addresses in
// text that can name a site, lower-cased, without hyphens: "avclub" for
// "https://music.avclub.com/x", "rollingstone" for "www.rolling-stone.com".
// The last label (the top-level domain) and "www" are left out.
func hostLabels(text string) []string {
	if !strings.Contains(text, "://") && !strings.Contains(strings.ToLower(text), "www.") {
		return nil
	}
	var out []string
	for _, m := range hostRE.FindAllStringSubmatch(text, -1) {
		labels := strings.Split(strings.ToLower(m[1]), ".")
		for _, l := range labels[:len(labels)-1] {
			if l = strings.ReplaceAll(l, "-", ""); l != "www" && l != "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// findHost returns a passage whose web address names the site the name
// text is, or nil: a page cites a publication or a company by its address
// as often as by its name, and the address writes the name squeezed into
// one label ("The A.V. Club" by "music.avclub.com", "Rolling Stone" by
// "www.rollingstone.com"). The name's letters and digits, lower-cased and
// without a leading "The", must be a whole label, of at least five
// letters, so that initials and short words do not match by chance.
func (ix *Index) findHost(text string) *Passage {
	if ablate.Off(ablate.WebHost) {
		return nil
	}
	if f := strings.Fields(text); len(f) > 1 && strings.EqualFold(f[0], "the") {
		text = strings.Join(f[1:], " ")
	}
	key := squeeze(text)
	if len(key) < 5 {
		return nil
	}
	for _, part := range ix.parts {
		for _, id := range part.hosts[key] {
			return &part.passages[id]
		}
	}
	return nil
}
