package claim

import "strings"

// Alternatives returns the claims that state what c states in other words,
// best first: for a name, one per [WordForms]; nil for other kinds. A
// checker that finds no evidence for c takes the verdict of the first
// alternative a source states. (The forms without a place's kind and with a
// country in another form, claim.NameForms, were removed in issue 26's
// fourth round: they changed claims of one half of WiCE dev only.)
func (c Claim) Alternatives() []Claim {
	if c.Kind != Name {
		return nil
	}
	var out []Claim
	for _, f := range WordForms(c.Text) {
		alt := c
		alt.Text, alt.Value = f, strings.ToLower(f)
		out = append(out, alt)
	}
	return out
}
