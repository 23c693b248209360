package quality

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/layer"
)

// banditRules maps bandit's test ids to the rule of ours that finds the
// same pattern.
var banditRules = map[string]string{
	"B602": "security.shell_true",   // subprocess_popen_with_shell_equals_true
	"B605": "security.shell_string", // start_process_with_a_shell
	"B307": "security.eval",         // blacklist: eval
	"B102": "security.eval",         // exec_used
	"B301": "security.pickle",       // blacklist: pickle, cPickle, dill, shelve
	"B302": "security.pickle",       // blacklist: marshal
	"B506": "security.yaml_load",    // yaml_load
	"B501": "security.tls_verify",   // request_with_no_cert_validation
	"B323": "security.tls_verify",   // unverified_context
	"B303": "security.weak_hash",    // blacklist: md5, sha1
	"B324": "security.weak_hash",    // hashlib_new with a weak hash
	"B608": "security.sql_format",   // hardcoded_sql_expressions
	"B105": "security.secret",       // hardcoded_password_string
	"B106": "security.secret",       // hardcoded_password_funcarg
	"B107": "security.secret",       // hardcoded_password_default
	"B310": "",                      // urllib_urlopen: not a rule of ours
	"B311": "",                      // random: not a rule of ours
	"B101": "",                      // assert_used: not a rule of ours
	"B110": "",                      // try_except_pass: not a rule of ours
	"B112": "",                      // try_except_continue: not a rule of ours
	"B404": "", "B403": "", "B603": "", "B607": "", "B606": "", "B604": "", "B108": "", "B306": "", "B314": "", "B318": "", "B320": "", "B405": "", "B408": "", "B410": "", "B411": "", "B402": "", "B401": "", "B406": "", "B407": "", "B409": "", "B413": "", "B325": "", "B313": "", "B319": "", "B321": "", "B104": "", "B103": "", "B201": "", "B701": "", "B702": "", "B703": "", "B601": "", "B609": "", "B610": "", "B611": "", "B322": "", "B304": "", "B305": "", "B308": "", "B309": "", "B312": "", "B315": "", "B316": "", "B317": "", "B412": "", "B502": "", "B503": "", "B504": "", "B505": "", "B507": "",
}

var lineSuffix = regexp.MustCompile(`line:(\d+)(:column:\d+)?$`)

// ourFindings runs the layer's code checks on a Python file and returns
// the lines of each security rule's findings.
func ourFindings(t *testing.T, src []byte) map[string][]int {
	t.Helper()
	p := layer.NewPass(Layer, &layer.Input{}, layer.NewCache(0))
	cfg, _ := newConfig(layer.QualityOptions{})
	if err := checkCode(context.Background(), p, piece{lang: code.Python, label: "python", text: string(src)}, cfg); err != nil {
		t.Fatal(err)
	}
	out := map[string][]int{}
	for _, is := range p.Findings().Issues {
		m := lineSuffix.FindStringSubmatch(is.Location)
		if m == nil || len(is.Rule) < 9 || is.Rule[:9] != "security." {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		out[is.Rule] = append(out[is.Rule], n)
	}
	return out
}

// agreement counts, per rule, lines both found, only bandit found and
// only we found.
type agreement struct{ both, bandit, ours int }

func (a agreement) rate() float64 {
	if all := a.both + a.bandit + a.ours; all > 0 {
		return float64(a.both) / float64(all)
	}
	return 1
}

// TestSecurityMatchesBandit runs bandit and our Python security checks on
// a corpus of snippets and on a sample of the Python standard library,
// and reports the agreement per rule (findings on the same line, over
// the findings of either). On the snippets, each rule must find at least
// 90% of what bandit finds; what only we find is listed, not failed:
// bandit 1.6.2 does not see some patterns (see banditBlind) or lists
// fewer functions (subprocess.getoutput runs a shell too).
func TestSecurityMatchesBandit(t *testing.T) {
	t.Parallel()
	bandit, err := exec.LookPath("bandit")
	if err != nil {
		missingTool(t, "bandit is not installed (apt-get install bandit)")
	}
	snippets, _ := filepath.Glob("testdata/bandit/*.py")
	var stdlib []string
	if libs, _ := filepath.Glob("/usr/lib/python3.*/os.py"); len(libs) > 0 {
		sort.Strings(libs)
		all, _ := filepath.Glob(filepath.Join(filepath.Dir(libs[len(libs)-1]), "*.py"))
		sort.Strings(all)
		for i := 0; i < len(all); i += 4 {
			stdlib = append(stdlib, all[i])
		}
	}
	for _, corpus := range []struct {
		name    string
		files   []string
		require bool
	}{{"snippets", snippets, true}, {"stdlib sample", stdlib, false}} {
		if len(corpus.files) == 0 {
			t.Fatalf("%s: no files", corpus.name)
		}
		out, err := exec.Command(bandit, append([]string{"-f", "json", "-q"}, corpus.files...)...).Output()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("bandit: %v", err)
		}
		var report struct {
			Results []struct {
				File   string `json:"filename"`
				TestID string `json:"test_id"`
				Line   int    `json:"line_number"`
			} `json:"results"`
			Errors []struct {
				File   string `json:"filename"`
				Reason string `json:"reason"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(out, &report); err != nil {
			t.Fatalf("bandit output: %v", err)
		}
		skip := map[string]bool{}
		for _, e := range report.Errors {
			t.Logf("%s: bandit could not analyse %s: %s", corpus.name, e.File, e.Reason)
			skip[e.File] = true
		}
		theirs := map[string]map[string][]int{} // rule -> file -> lines
		for _, r := range report.Results {
			rule, known := banditRules[r.TestID]
			if !known {
				t.Logf("%s: bandit test %s is not mapped", corpus.name, r.TestID)
			}
			if rule == "" {
				continue
			}
			if theirs[rule] == nil {
				theirs[rule] = map[string][]int{}
			}
			theirs[rule][r.File] = append(theirs[rule][r.File], r.Line)
		}
		agree := map[string]*agreement{}
		for _, rule := range banditRules {
			if rule != "" && agree[rule] == nil {
				agree[rule] = &agreement{}
			}
		}
		for _, file := range corpus.files {
			if skip[file] {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ours := ourFindings(t, src)
			for rule, a := range agree {
				their := slices.Compact(slices.Sorted(slices.Values(theirs[rule][file])))
				mine := slices.Compact(slices.Sorted(slices.Values(ours[rule])))
				for _, l := range their {
					if slices.Contains(mine, l) {
						a.both++
					} else {
						a.bandit++
						t.Logf("%s: %s:%d: bandit finds %s, we do not", corpus.name, file, l, rule)
					}
				}
				for _, l := range mine {
					if !slices.Contains(their, l) {
						a.ours++
						t.Logf("%s: %s:%d: we find %s, bandit does not", corpus.name, file, l, rule)
					}
				}
			}
		}
		for _, rule := range slices.Sorted(maps.Keys(agree)) {
			a := agree[rule]
			t.Logf("%s: %-22s agreement %5.1f%% (both %d, bandit only %d, ours only %d)", corpus.name, rule, 100*a.rate(), a.both, a.bandit, a.ours)
			if found := a.both + a.bandit; corpus.require && found > 0 && float64(a.both)/float64(found) < 0.9 {
				t.Errorf("%s: %s finds %d of bandit's %d findings, under 90%%", corpus.name, rule, a.both, found)
			}
		}
	}
}

// missingTool fails the test under CI=true, where scripts/test installs
// every reference tool, and skips it otherwise.
func missingTool(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: scripts/test installs it)", msg)
	}
	t.Skipf("%s; skipping the differential test (scripts/test installs it)", msg)
}
