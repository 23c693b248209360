package source_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/internal/sourcepass"
	"github.com/agentjudge/judge/layer"
)

func mustIndex(t testing.TB, docs ...source.Doc) *source.Index {
	t.Helper()
	var parts []*source.DocIndex
	for _, d := range docs {
		x, err := source.Build(d)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, x)
	}
	return source.NewIndex(parts...)
}

func TestCheck(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "news.txt", Content: "Four people, three men and one woman, were arrested on Thursday. " +
		"The activists spread 170 litres of yellow paint on Bayswater Road.\n" +
		"The invasion began on Feb. 24, 2022, seven years ago. Sam said he was not happy living there. The report was written by Jane Doe."},
		source.Doc{ID: "nvd.md", URL: "https://nvd.test/CVE-1", Content: "# CVE-2024-12345\n\n| Metric | Value |\n|---|---|\n| CVSS score | 7.5 |\n\nAffected: versions prior to 1.24.1."},
		source.Doc{ID: "meta.json", Content: `{"release": {"releaseDate": "2024-02-20", "downloads": 1200}}`})
	tests := []struct {
		text   string
		status source.Status
		found  string // the contradicting value, if any
		near   bool
	}{
		{"Four people were arrested.", source.Supported, "", false},
		{"Five people were arrested.", source.Contradicted, "Four", false},
		{"They spread 170 litres of paint.", source.Supported, "", false},
		{"They spread 200 litres of paint.", source.Contradicted, "170", false},
		{"They were arrested on Thursday.", source.Supported, "", false},
		{"They were arrested on Tuesday.", source.Contradicted, "Thursday", false},
		{"The invasion began on Feb. 24, 2022.", source.Supported, "", false},
		{"The invasion began on March 24, 2022.", source.Contradicted, "Feb. 24, 2022", true},
		{"Sam was not happy.", source.Supported, "", false},
		{"The report was written by John Roe.", source.Contradicted, "Jane Doe", false},
		{"The report was written by Jane Doe.", source.Supported, "", false},
		{"A mention of Jane Doe.", source.Supported, "", false},
		{"The CVSS score is 9.8.", source.Contradicted, "7.5", false},
		{"It affects versions prior to 1.24.0.", source.Contradicted, "prior to 1.24.1", false},
		{"It affects versions prior to 1.24.1.", source.Supported, "", false},
		{"See CVE-2024-12345.", source.Supported, "", false},
		{"The release date: 2024-03-20.", source.Contradicted, "2024-02-20", true},
		{"There were 1,200 downloads.", source.Supported, "", false},
		{"Zeta Corp was involved.", source.Unsupported, "", false},
		{"They spread yellow paint.", source.Supported, "", false},
		{"They spread pink paint.", source.Unsupported, "", false},
		{"The invasion began seven months ago.", source.Unsupported, "", false},
		{"The weather was not cold.", source.Undecided, "", false},
	}
	for _, tt := range tests {
		set := claim.Extract(tt.text, "")
		var c *claim.Claim
		for i := range set.Claims {
			if set.Claims[i].Kind != claim.Name || c == nil {
				if c == nil || c.Kind == claim.Name {
					c = &set.Claims[i]
				}
			}
		}
		if c == nil {
			t.Errorf("%q: no claim", tt.text)
			continue
		}
		v := ix.Check(*c)
		if v.Status != tt.status || v.Near != tt.near || (tt.found != "" && v.Found.Text != tt.found) {
			t.Errorf("%q (%s): got %s near=%v found %q, want %s near=%v found %q", tt.text, c, v.Status, v.Near, v.Found.Text, tt.status, tt.near, tt.found)
		}
		if (v.Status == source.Supported || v.Status == source.Contradicted) && v.Evidence == nil {
			t.Errorf("%q: %s without evidence", tt.text, v.Status)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	t.Parallel()
	if _, err := source.Build(source.Doc{ID: "bad", Content: "\xff"}); err == nil || !strings.Contains(err.Error(), `source "bad": the document is not UTF-8`) {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if _, err := source.Build(source.Doc{ID: "big", Content: strings.Repeat("a", source.MaxDocBytes+1)}); err == nil {
		t.Error("oversized document accepted")
	}
	// A JSON source that does not parse is read as text.
	x, err := source.Build(source.Doc{ID: "x.json", Content: `{"a": 1`})
	if err != nil || x.Passages() != 1 {
		t.Errorf("broken JSON: %v, %d passages", err, x.Passages())
	}
}

func TestLoadDirAndMatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"CVE-2024-12345.md": "CVSS score: 7.5.",
		"sub/notes.txt":     "Plain notes.",
		"wrapped.json":      `{"id": "nvd", "url": "https://nvd.test/x", "title": "NVD", "content": "Score 7.5."}`,
		".hidden/skip.txt":  "skipped",
		"image.png":         "skipped",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs, err := source.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID)
	}
	if strings.Join(ids, ",") != "CVE-2024-12345.md,sub/notes.txt,nvd" {
		t.Fatalf("ids %v", ids)
	}
	if docs[2].URL != "https://nvd.test/x" || docs[2].Content != "Score 7.5." {
		t.Errorf("wrapped JSON doc %+v", docs[2])
	}
	for _, tt := range []struct {
		uri  string
		doc  int
		want bool
	}{
		{"https://nvd.nist.gov/vuln/detail/CVE-2024-12345", 0, true},
		{"CVE-2024-12345.md", 0, true},
		{"sub/notes.txt", 1, true},
		{"notes", 1, true},
		{"https://nvd.test/x", 2, true},
		{"nvd", 2, true},
		{"https://other.test/CVE-2024-9", 0, false},
	} {
		if got := source.Matches(&docs[tt.doc], tt.uri); got != tt.want {
			t.Errorf("Matches(%s, %q) = %v", docs[tt.doc].ID, tt.uri, got)
		}
	}
	if _, err := source.LoadDir(filepath.Join(dir, "absent")); err == nil {
		t.Error("absent directory loaded")
	}
}

func TestAntonymSwaps(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "d", Content: "The price of food has gone up in the past two years. The number of children per family has gone down. " +
		"The guidance answers the increased market availability of oat drinks over the past decade, and their impressive growth."})
	ants := func(stem string) []string {
		return map[string][]string{"down": {"up"}, "up": {"down"}, "decreas": {"increas"}}[stem]
	}
	for _, tt := range []struct {
		sentence string
		want     string // "word>antonym", or ""
	}{
		{"The price of food has gone down in the past two years.", "down>up"},
		{"The price of food has gone up in the past two years.", ""},
		{"The price of food has not gone down in the past two years.", ""}, // negated: not compared
		{"The weather went down.", ""},                                     // no passage shares enough
		// Two shared words are enough where the antonym stands beside the
		// same word; a negating prefix makes an antonym there.
		{"Regulators wrote rules because of decreased market availability.", "decreased>increased"},
		{"Regulators wrote rules because of decreased demand and availability.", ""},
		{"Sales of oat drinks show unimpressive growth.", "unimpressive>impressive"},
		{"Sales of oat drinks show unimpressive results.", ""},
	} {
		var got []string
		for _, sw := range ix.AntonymSwaps(tt.sentence, ants) {
			got = append(got, sw.Word+">"+sw.Antonym)
			if sw.Evidence == nil || sw.Evidence.Line != 1 && !strings.Contains(sw.Evidence.Text, "increased") {
				t.Errorf("%q: evidence %+v", tt.sentence, sw.Evidence)
			}
		}
		if strings.Join(got, ",") != tt.want {
			t.Errorf("%q: swaps %v, want %q", tt.sentence, got, tt.want)
		}
	}
}

// TestMarkdownLines: evidence points at the line of the original document,
// blank lines and markup included.
func TestMarkdownLines(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "a.md", Content: "# Title\n\nIntro text here.\n\n- **CVSS score**: 7.5\n- See [the advisory](https://x.test/a).\n\n| Field | Value |\n|---|---|\n| Downloads | 1200 |\n"})
	for _, tt := range []struct {
		text string
		line int
	}{
		{"The CVSS score is 7.5.", 5},
		{"There were 1200 downloads.", 10},
		{"Read https://x.test/a now.", 6},
	} {
		set := claim.Extract(tt.text, "")
		var c claim.Claim
		for _, x := range set.Claims {
			if x.Kind != claim.Name {
				c = x
				break
			}
		}
		v := ix.Check(c)
		if v.Status != source.Supported || v.Evidence.Line != tt.line {
			t.Errorf("%q: %s at line %d, want supported at line %d", tt.text, v.Status, lineOf(v), tt.line)
		}
	}
}

func lineOf(v source.Verdict) int {
	if v.Evidence == nil {
		return 0
	}
	return v.Evidence.Line
}

// TestNumbersOfOtherThings: a number contradicts another only when both
// measure the same attribute or count the same unit.
func TestNumbersOfOtherThings(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "chat", Content: "Emily: Should we meet at the Javits Center at 6?"})
	c := claim.Extract("They raised $5 million at the Javits Center.", "").Claims
	i := slices.IndexFunc(c, func(c claim.Claim) bool { return c.Kind == claim.Number })
	if v := ix.Check(c[i]); v.Status != source.Unsupported {
		t.Errorf("$5 million against 'at 6': %s (found %q), want unsupported", v.Status, v.Found.Text)
	}
}

// TestWarmAndReuse: a document indexed at start is found by the first
// request, under the URL that request gives it; a document shared by two
// sets is indexed once.
func TestWarmAndReuse(t *testing.T) {
	t.Parallel()
	cache := layer.NewCache(0)
	doc := source.Doc{ID: "CVE-1.md", Content: "CVSS score: 7.5."}
	if n, err := source.Warm([]*layer.Cache{cache}, []source.Doc{doc}); n != 1 || err != nil {
		t.Fatalf("Warm: %d, %v", n, err)
	}
	in := &layer.Input{Sources: []layer.Source{{ID: "CVE-1.md", URL: "https://nvd.test/CVE-1", Content: doc.Content}}}
	ix, _, err := sourcepass.Index(context.Background(), "facts", in, cache)
	if err != nil {
		t.Fatal(err)
	}
	if _, hits := cache.Stats(); hits != 1 {
		t.Errorf("%d cache hits, want the warmed document found", hits)
	}
	v := ix.Check(claim.Extract("The CVSS score is 9.8.", "").Claims[1])
	if v.Status != source.Contradicted || v.Source.Ref() != "https://nvd.test/CVE-1" {
		t.Errorf("verdict %s citing %q, want contradicted citing the request's URL", v.Status, v.Source.Ref())
	}
	// A second set holding the same document reuses its index.
	in2 := &layer.Input{Sources: append(in.Sources, layer.Source{ID: "other", Content: "Other."})}
	if _, _, err := sourcepass.Index(context.Background(), "facts", in2, cache); err != nil {
		t.Fatal(err)
	}
	if _, hits := cache.Stats(); hits != 2 {
		t.Errorf("%d cache hits, want the shared document found again", hits)
	}
}

// TestImplicitNegationCountsAndScales: a source's "failed to" negates what
// follows it, a negation is decided by the passage that best matches its
// sentence when no passage holds all its words, a count of one or two no source states is undecided (a
// duration stays unsupported), and "mln" scales like "million".
func TestImplicitNegationCountsAndScales(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "d", Content: "The boss admitted the company failed to get the balance right. " +
		"James: if we are late we may lose 5 mln bucks. The meeting starts after lunch.\n" +
		"The committee members approved the proposal after a long debate on Tuesday."})
	for _, tt := range []struct {
		text   string
		status source.Status
	}{
		{"The company did not get the balance right.", source.Supported},
		{"They may lose 5 million dollars if they are late.", source.Supported},
		{"They may lose 5 billion dollars if they are late.", source.Unsupported}, // "bucks" is not "dollars": not the same thing to contradict
		{"Two friends discuss the meeting.", source.Undecided},
		{"The meeting lasts one week.", source.Unsupported},
		{"Three friends discuss the meeting.", source.Unsupported},
		// No passage holds every negated word ("quickly"): the passage
		// that best matches the sentence states it without negation.
		{"The committee members did not approve the proposal quickly on Tuesday.", source.Unsupported},
		{"The weather did not approve of the proposal quickly.", source.Undecided}, // too little in common
	} {
		set := claim.Extract(tt.text, "")
		i := slices.IndexFunc(set.Claims, func(c claim.Claim) bool { return c.Kind != claim.Name })
		if i < 0 {
			t.Errorf("%q: no claim", tt.text)
			continue
		}
		if v := ix.Check(set.Claims[i]); v.Status != tt.status {
			t.Errorf("%q (%s): got %s, want %s", tt.text, set.Claims[i], v.Status, tt.status)
		}
	}
}

func TestDroppedNegation(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "d", Content: "Weather aside, the city council did not approve the new budget plan on Monday.\nThe mayor spoke to reporters."})
	for _, tt := range []struct {
		sentence string
		want     bool
	}{
		{"The city council approved the new budget plan on Monday.", true},
		{"The city council did not approve the new budget plan on Monday.", false}, // negated as the source
		{"The city council discussed the new budget plan on Monday.", false},       // the negated words are not stated
		{"The mayor approved the new budget.", false},                              // too little in common
	} {
		p := ix.DroppedNegation(tt.sentence)
		if (p != nil) != tt.want {
			t.Errorf("%q: got %v, want a passage: %v", tt.sentence, p, tt.want)
		}
		if p != nil && p.Line != 1 {
			t.Errorf("%q: evidence on line %d", tt.sentence, p.Line)
		}
	}
}
