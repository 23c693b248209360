package quality

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/result"
)

// call is a function call of any language: the callee as written
// ("subprocess.run", "os.system", "eval"), its positional arguments and
// its keyword arguments (Python) by name.
type call struct {
	node   *code.Node
	callee string
	args   []*code.Node
	kwargs map[string]*code.Node
}

// pyImports maps the names a Python file binds by import to what they
// stand for: "md5" to "hashlib.md5" after "from hashlib import md5", "h"
// to "hashlib" after "import hashlib as h".
func (u *unit) pyImports() map[string]string {
	names := map[string]string{}
	u.f.Root.Walk(func(n *code.Node) bool {
		switch n.Kind {
		case "import_statement":
			for _, c := range n.Children {
				if c.Kind == "aliased_import" {
					names[u.f.Text(c.Child("alias"))] = u.f.Text(c.Child("name"))
				}
			}
			return false
		case "import_from_statement":
			module := u.f.Text(n.Child("module_name"))
			for _, c := range n.Children {
				if c.Field != "name" {
					continue
				}
				switch c.Kind {
				case "dotted_name":
					names[u.f.Text(c)] = module + "." + u.f.Text(c)
				case "aliased_import":
					names[u.f.Text(c.Child("alias"))] = module + "." + u.f.Text(c.Child("name"))
				}
			}
			return false
		}
		return true
	})
	return names
}

// calls lists the calls of the unit.
func (u *unit) calls() []call {
	var out []call
	var imports map[string]string
	if u.f.Lang == code.Python {
		imports = u.pyImports()
	}
	u.f.Root.Walk(func(n *code.Node) bool {
		switch n.Kind {
		case "call", "call_expression", "new_expression":
			fn := n.Child("function")
			if fn == nil {
				fn = n.Child("constructor")
			}
			args := n.Child("arguments")
			if fn == nil {
				return true
			}
			c := call{node: n, callee: strings.Join(strings.Fields(u.f.Text(fn)), ""), kwargs: map[string]*code.Node{}}
			if n.Kind == "new_expression" {
				c.callee = "new " + c.callee
			}
			head, rest, _ := strings.Cut(c.callee, ".")
			if q, ok := imports[head]; ok {
				c.callee = q
				if rest != "" {
					c.callee += "." + rest
				}
			}
			if args != nil {
				for _, a := range args.Children {
					switch {
					case a.Kind == "keyword_argument":
						if name := a.Child("name"); name != nil {
							c.kwargs[u.f.Text(name)] = a.Child("value")
						}
					case a.Named && a.Kind != "comment":
						c.args = append(c.args, a)
					}
				}
			}
			out = append(out, c)
		case "command":
			// Bash: the command name and its words.
			name := n.Child("name")
			if name == nil {
				return true
			}
			c := call{node: n, callee: u.f.Text(name), kwargs: map[string]*code.Node{}}
			for _, a := range n.Children {
				if a.Field == "argument" {
					c.args = append(c.args, a)
				}
			}
			out = append(out, c)
		}
		return true
	})
	return out
}

// last is the last dotted part of a callee: "run" of "subprocess.run".
func last(callee string) string { return callee[strings.LastIndexByte(callee, '.')+1:] }

// isLiteral reports whether n is a plain string literal, with no
// interpolation.
func (u *unit) isLiteral(n *code.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case "string":
		return !n.Has("interpolation") && !hasKind(n, "interpolation") && !strings.ContainsAny(strings.ToLower(prefixOf(u.f.Text(n))), "f")
	case "interpreted_string_literal", "raw_string_literal", "string_fragment":
		return true
	case "template_string":
		return !hasKind(n, "template_substitution")
	case "concatenated_string":
		for _, c := range n.Children {
			if c.Named && !u.isLiteral(c) {
				return false
			}
		}
		return true
	}
	return false
}

// prefixOf returns a Python string's prefix letters ("f", "rb").
func prefixOf(s string) string {
	i := strings.IndexAny(s, `"'`)
	if i < 0 {
		return ""
	}
	return s[:i]
}

func hasKind(n *code.Node, kind string) bool {
	found := false
	n.Walk(func(c *code.Node) bool {
		if c.Kind == kind {
			found = true
		}
		return !found
	})
	return found
}

func (u *unit) security() {
	for _, c := range u.calls() {
		u.securityCall(c)
	}
	u.sqlStrings()
	u.secrets()
	u.tlsPatterns()
}

func (u *unit) securityCall(c call) {
	lang := u.f.Lang
	name := last(c.callee)
	switch lang {
	case code.Python:
		switch {
		case strings.HasPrefix(c.callee, "subprocess.") && isTrue(u, c.kwargs["shell"]):
			u.at(c.node, result.Warning, result.SecurityIssue, "security.shell_true",
				fmt.Sprintf("%s is called with shell=True: input that reaches the command can run any shell command", c.callee),
				"Use subprocess with parameterized commands instead of shell=True: pass the program and its arguments as a list")
		case c.callee == "os.system" || c.callee == "os.popen" || strings.HasPrefix(c.callee, "os.popen") || c.callee == "commands.getoutput" || c.callee == "subprocess.getoutput" || c.callee == "subprocess.getstatusoutput":
			u.at(c.node, result.Warning, result.SecurityIssue, "security.shell_string",
				fmt.Sprintf("%s runs its argument through the shell: a command string built from input allows shell injection", c.callee),
				"Use subprocess.run([program, arg, ...]) with a list of arguments and without a shell")
		case c.callee == "eval" || c.callee == "exec" || c.callee == "builtins.eval" || c.callee == "builtins.exec":
			u.at(c.node, result.Warning, result.SecurityIssue, "security.eval",
				fmt.Sprintf("%s() runs a string as Python code: input that reaches it can run anything", c.callee),
				"Parse the data instead (ast.literal_eval for literals, json.loads for JSON), or dispatch through a dict of allowed functions")
		case (strings.HasPrefix(c.callee, "pickle.") || strings.HasPrefix(c.callee, "cPickle.") || strings.HasPrefix(c.callee, "dill.") || strings.HasPrefix(c.callee, "marshal.")) && (name == "load" || name == "loads" || name == "Unpickler"),
			c.callee == "shelve.open":
			u.at(c.node, result.Warning, result.SecurityIssue, "security.pickle",
				fmt.Sprintf("%s deserializes data that can run arbitrary code when it comes from an untrusted source", c.callee),
				"Load untrusted data with a data-only format such as json.loads, or sign and verify the bytes before unpickling")
		case c.callee == "yaml.load" || c.callee == "yaml.load_all" || c.callee == "yaml.unsafe_load":
			if loader := c.kwargs["Loader"]; c.callee != "yaml.unsafe_load" && loader != nil && strings.Contains(u.f.Text(loader), "Safe") {
				return
			}
			if c.callee != "yaml.unsafe_load" && len(c.args) > 1 && strings.Contains(u.f.Text(c.args[1]), "Safe") {
				return
			}
			u.at(c.node, result.Warning, result.SecurityIssue, "security.yaml_load",
				fmt.Sprintf("%s without a safe Loader can build arbitrary Python objects from untrusted YAML", c.callee),
				"Use yaml.safe_load(data), or pass Loader=yaml.SafeLoader")
		case (strings.HasPrefix(c.callee, "requests.") || strings.HasPrefix(c.callee, "httpx.") || strings.HasPrefix(c.callee, "session.")) && isFalse(u, c.kwargs["verify"]):
			u.at(c.node, result.Warning, result.SecurityIssue, "security.tls_verify",
				fmt.Sprintf("%s is called with verify=False: TLS certificates are not checked, so the connection can be intercepted", c.callee),
				"Remove verify=False; to trust a private CA, pass verify='/path/to/ca-bundle.pem'")
		case c.callee == "ssl._create_unverified_context":
			u.at(c.node, result.Warning, result.SecurityIssue, "security.tls_verify",
				"ssl._create_unverified_context() turns off certificate verification for the connection",
				"Use ssl.create_default_context(), loading a private CA with cafile= if needed")
		case c.callee == "hashlib.md5" || c.callee == "hashlib.sha1" || c.callee == "md5.new" || c.callee == "sha.new" ||
			c.callee == "hashlib.new" && len(c.args) > 0 && weakHashName(u.f.Text(c.args[0])):
			u.weakHash(c)
		}
	case code.JavaScript, code.TypeScript:
		switch {
		case c.callee == "eval" || c.callee == "window.eval" || c.callee == "new Function" || c.callee == "Function" ||
			(c.callee == "setTimeout" || c.callee == "setInterval") && len(c.args) > 0 && (c.args[0].Kind == "string" || c.args[0].Kind == "template_string"):
			u.at(c.node, result.Warning, result.SecurityIssue, "security.eval",
				fmt.Sprintf("%s runs a string as JavaScript: input that reaches it can run anything", c.callee),
				"Parse data with JSON.parse, or call a function from a map of allowed functions instead of building code")
		case (name == "exec" || name == "execSync") && len(c.args) > 0 && !u.isLiteral(c.args[0]) && c.callee != "exec" || (name == "exec" || name == "execSync") && strings.Contains(c.callee, "child_process"):
			u.at(c.node, result.Warning, result.SecurityIssue, "security.shell_string",
				fmt.Sprintf("%s runs a command string through the shell: input in the string allows shell injection", c.callee),
				"Use child_process.execFile or spawn with the program and an array of arguments, without shell: true")
		case (name == "spawn" || name == "spawnSync" || name == "execFile") && hasShellTrue(u, c):
			u.at(c.node, result.Warning, result.SecurityIssue, "security.shell_true",
				fmt.Sprintf("%s is called with shell: true: input in the arguments allows shell injection", c.callee),
				"Drop shell: true and pass the program and an array of arguments")
		case name == "createHash" && len(c.args) > 0 && weakHashName(u.f.Text(c.args[0])):
			u.weakHash(c)
		}
	case code.Go:
		switch {
		case c.callee == "exec.Command" || c.callee == "exec.CommandContext":
			args := c.args
			if c.callee == "exec.CommandContext" && len(args) > 0 {
				args = args[1:]
			}
			if len(args) >= 2 && isShell(strings.Trim(u.f.Text(args[0]), "\"`")) && strings.Trim(u.f.Text(args[1]), "\"`") == "-c" {
				u.at(c.node, result.Warning, result.SecurityIssue, "security.shell_string",
					fmt.Sprintf("%s runs a command string through a shell (-c): input in the string allows shell injection", c.callee),
					"Call exec.Command with the program and its arguments directly, without sh -c")
			}
		case c.callee == "md5.New" || c.callee == "md5.Sum" || c.callee == "sha1.New" || c.callee == "sha1.Sum":
			u.weakHash(c)
		}
	case code.Bash:
		switch {
		case c.callee == "eval":
			u.at(c.node, result.Warning, result.SecurityIssue, "security.eval",
				"eval runs its arguments as shell code: any input in them can run commands",
				"Run the command directly with quoted arguments, or use an array: cmd=(prog \"$arg\"); \"${cmd[@]}\"")
		case c.callee == "curl" && anyArg(u, c, "-k", "--insecure"), c.callee == "wget" && anyArg(u, c, "--no-check-certificate"):
			u.at(c.node, result.Warning, result.SecurityIssue, "security.tls_verify",
				fmt.Sprintf("%s is run with TLS verification turned off, so the download can be intercepted", c.callee),
				"Drop the insecure flag; to trust a private CA, pass it with --cacert (curl) or --ca-certificate (wget)")
		case (c.callee == "curl" || c.callee == "wget") && u.pipesToShell(c.node):
			u.at(c.node, result.Warning, result.SecurityIssue, "security.shell_string",
				fmt.Sprintf("The output of %s is piped into a shell: whatever the server sends is run", c.callee),
				"Download to a file, verify its checksum or signature, then run it")
		}
	}
}

func isShell(s string) bool {
	switch s {
	case "sh", "bash", "/bin/sh", "/bin/bash", "zsh", "/usr/bin/env":
		return true
	}
	return false
}

func anyArg(u *unit, c call, flags ...string) bool {
	for _, a := range c.args {
		t := u.f.Text(a)
		for _, f := range flags {
			if t == f || strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "--") && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, f[1:]) && len(t) <= 6 {
				return true
			}
		}
	}
	return false
}

// pipesToShell reports whether the command n is piped into sh or bash.
func (u *unit) pipesToShell(n *code.Node) bool {
	found := false
	u.f.Root.Walk(func(p *code.Node) bool {
		if found || p.Start > n.Start || p.End < n.End {
			return false
		}
		if p.Kind != "pipeline" {
			return true
		}
		seen := false
		for _, c := range p.Children {
			if c == n {
				seen = true
				continue
			}
			if seen && c.Kind == "command" {
				if name := c.Child("name"); name != nil && isShell(u.f.Text(name)) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

var shellTrueOption = regexp.MustCompile(`\bshell\s*:\s*true\b`)

func hasShellTrue(u *unit, c call) bool {
	for _, a := range c.args {
		if a.Kind == "object" && shellTrueOption.MatchString(u.f.Text(a)) {
			return true
		}
	}
	return false
}

func isTrue(u *unit, n *code.Node) bool  { return n != nil && u.f.Text(n) == "True" }
func isFalse(u *unit, n *code.Node) bool { return n != nil && u.f.Text(n) == "False" }

func weakHashName(s string) bool {
	s = strings.ToLower(strings.Trim(s, "\"'`"))
	return s == "md5" || s == "sha1" || s == "sha-1" || s == "md4"
}

var passwordWords = regexp.MustCompile(`(?i)pass(wd|word|phrase)?|pwd|credential`)

// weakHash reports MD5 or SHA-1: a warning when a password is near, since
// they are far too fast for passwords; info otherwise.
func (u *unit) weakHash(c call) {
	stmt := u.statement(c.node)
	if passwordWords.MatchString(u.f.Text(stmt)) {
		u.at(c.node, result.Warning, result.SecurityIssue, "security.weak_hash",
			fmt.Sprintf("%s hashes a password: MD5 and SHA-1 are fast and broken, so such hashes are cracked quickly", c.callee),
			"Hash passwords with a slow, salted function: bcrypt, scrypt, argon2 or PBKDF2 (hashlib.pbkdf2_hmac)")
		return
	}
	u.at(c.node, result.Info, result.SecurityIssue, "security.weak_hash",
		fmt.Sprintf("%s is a weak hash, unsafe for passwords, signatures or anything an attacker may forge", c.callee),
		"Use SHA-256 or better (hashlib.sha256, crypto.createHash('sha256')); for passwords, bcrypt, scrypt or argon2")
}

// statement returns the smallest statement-like ancestor of n, for
// context.
func (u *unit) statement(n *code.Node) *code.Node {
	best := n
	u.f.Root.Walk(func(p *code.Node) bool {
		if p.Start > n.Start || p.End < n.End {
			return false
		}
		if strings.HasSuffix(p.Kind, "statement") || strings.HasSuffix(p.Kind, "declaration") || p.Kind == "assignment" || p.Kind == "function_definition" {
			best = p
		}
		return true
	})
	return best
}

// sqlRE matches SQL as bandit's hardcoded_sql_expressions (B608) does.
var sqlRE = regexp.MustCompile(`(?is)(select\s.*from\s|delete\s+from\s|insert\s+into\s.*values\s|update\s.*set\s)`)

// sqlStrings reports SQL built by string formatting: f-strings and
// template literals with substitutions, % and .format, concatenation,
// fmt.Sprintf.
func (u *unit) sqlStrings() {
	seen := map[int]bool{}
	report := func(n *code.Node, how string) {
		if seen[n.Line] {
			return
		}
		seen[n.Line] = true
		u.at(n, result.Warning, result.SecurityIssue, "security.sql_format",
			fmt.Sprintf("SQL query built by %s: values put into the query text allow SQL injection", how),
			"Use a parameterized query: placeholders in the SQL (?, %s, $1) and the values passed separately to execute()")
	}
	u.f.Root.Walk(func(n *code.Node) bool {
		switch n.Kind {
		case "string", "template_string":
			if !u.isLiteral(n) && sqlRE.MatchString(u.f.Text(n)) {
				report(n, "interpolation")
			}
		case "binary_operator", "binary_expression":
			op := u.f.Text(n.Child("operator"))
			l, r := n.Child("left"), n.Child("right")
			if l == nil || r == nil {
				return true
			}
			lit := stringLit(u, l)
			if op == "%" && lit != nil && sqlRE.MatchString(u.f.Text(lit)) {
				report(n, "% formatting")
			}
			if op == "+" {
				for _, side := range []*code.Node{l, r} {
					if s := stringLit(u, side); s != nil && sqlRE.MatchString(u.f.Text(s)) && !(u.isLiteral(l) && u.isLiteral(r)) {
						report(n, "string concatenation")
					}
				}
			}
		case "call", "call_expression":
			fn := n.Child("function")
			if fn == nil {
				return true
			}
			if fn.Kind == "attribute" && u.f.Text(fn.Child("attribute")) == "format" {
				if obj := fn.Child("object"); obj != nil && obj.Kind == "string" && sqlRE.MatchString(u.f.Text(obj)) {
					report(n, "str.format")
				}
			}
			if t := u.f.Text(fn); t == "fmt.Sprintf" {
				if args := n.Child("arguments"); args != nil {
					for _, a := range args.Children {
						if a.Named {
							if stringLit(u, a) != nil && sqlRE.MatchString(u.f.Text(a)) && len(args.Children) > 3 {
								report(n, "fmt.Sprintf")
							}
							break
						}
					}
				}
			}
		}
		return true
	})
}

// stringLit returns n if it is a string literal node, else nil.
func stringLit(u *unit, n *code.Node) *code.Node {
	switch n.Kind {
	case "string", "template_string", "interpreted_string_literal", "raw_string_literal", "concatenated_string":
		return n
	case "parenthesized_expression":
		for _, c := range n.Children {
			if c.Named {
				return stringLit(u, c)
			}
		}
	}
	return nil
}

// secretName matches names that hold secrets, as bandit's B105-B107 do,
// plus key and token names.
var secretName = regexp.MustCompile(`(?i)(pas+wo?r?d|pass(phrase)?|pwd|token|secrete?|api_?key|apikey|access_?key|private_?key|auth_?key|client_?secret)`)

// keyFormats are the formats of well-known credentials.
var keyFormats = []struct {
	name string
	re   *regexp.Regexp
}{
	{"an AWS access key id", regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"a GitHub token", regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{50,}`)},
	{"a Slack token", regexp.MustCompile(`\bxox[baprs]-[0-9A-Za-z-]{10,}`)},
	{"a Stripe secret key", regexp.MustCompile(`\b[sr]k_live_[0-9a-zA-Z]{20,}`)},
	{"a Google API key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`)},
	{"an OpenAI API key", regexp.MustCompile(`\bsk-(proj-)?[A-Za-z0-9_-]{32,}`)},
	{"a private key", regexp.MustCompile(`-----BEGIN ([A-Z]+ )?PRIVATE KEY-----`)},
}

// placeholderSecret matches values that are obviously not real secrets.
var placeholderSecret = regexp.MustCompile(`(?i)^(|x+|\*+|\.+|changeme|change_me|password|secret|token|none|null|example|test|dummy|your[_ -].*|<.*>|\$\{.*\}|\{\{.*\}\}|%\(.*\)s|.*placeholder.*)$`)

// secrets reports hard-coded secrets: string literals assigned to, passed
// as or defaulting secret-named variables, credentials in known formats,
// and high-entropy strings.
func (u *unit) secrets() {
	seen := map[int]bool{}
	report := func(n *code.Node, msg string) {
		if seen[n.Line] {
			return
		}
		seen[n.Line] = true
		u.at(n, result.Error, result.SecurityIssue, "security.secret", msg,
			"Remove the secret from the code, rotate it, and read it at run time from the environment or a secret manager")
	}
	u.f.Root.Walk(func(n *code.Node) bool {
		var name, value *code.Node
		switch n.Kind {
		case "assignment", "keyword_argument", "default_parameter", "typed_default_parameter", "pair", "variable_declarator", "assignment_expression", "keyed_element", "short_var_declaration", "assignment_statement", "const_spec", "var_spec", "variable_assignment":
			name, value = first(n, "left", "name", "key"), first(n, "right", "value")
		case "comparison_operator":
			// password == "literal"
			if len(n.Children) == 3 {
				name, value = n.Children[0], n.Children[2]
			}
		}
		if name != nil && value != nil {
			if value.Kind == "expression_list" && len(value.Children) == 1 {
				value = value.Children[0]
			}
			nameText := u.f.Text(name)
			if i := strings.LastIndexAny(nameText, ".>"); i >= 0 {
				nameText = nameText[i+1:]
			}
			if lit := stringLit(u, value); lit != nil && u.isLiteral(lit) && secretName.MatchString(nameText) && !strings.Contains(strings.ToLower(nameText), "file") && !strings.Contains(strings.ToLower(nameText), "url") {
				v := strings.Trim(u.f.Text(lit), "\"'`")
				if !placeholderSecret.MatchString(v) && !strings.ContainsAny(v, " /") {
					report(n, fmt.Sprintf("Hard-coded secret: '%s' is set to a string literal in the code", nameText))
				}
			}
		}
		if n.Kind == "string" || n.Kind == "template_string" || n.Kind == "interpreted_string_literal" || n.Kind == "raw_string_literal" || n.Kind == "raw_string" || n.Kind == "word" {
			text := u.f.Text(n)
			if len(text) < 20 {
				return false // shorter than any key format or token
			}
			for _, k := range keyFormats {
				if k.re.MatchString(text) {
					report(n, fmt.Sprintf("Hard-coded secret: the string looks like %s", k.name))
					return false
				}
			}
			if s := strings.Trim(text, "\"'`"); highEntropy(s) {
				report(n, fmt.Sprintf("Hard-coded secret: a %d-character high-entropy string looks like a key or token", len(s)))
			}
			return false
		}
		return true
	})
}

func first(n *code.Node, fields ...string) *code.Node {
	for _, f := range fields {
		if c := n.Child(f); c != nil {
			return c
		}
	}
	return nil
}

var (
	base64Chars = regexp.MustCompile(`^[A-Za-z0-9+/_=-]{24,}$`)
	hexChars    = regexp.MustCompile(`^[0-9a-fA-F]{32,}$`)
)

// highEntropy reports a token-like string: 24+ base64 characters with
// more than 4.5 bits of entropy per character, mixing letters and digits
// (or 32+ hex digits with more than 3.5).
func highEntropy(s string) bool {
	switch {
	case hexChars.MatchString(s):
		return entropy(s) > 3.5 && strings.ContainsAny(s, "0123456789") && strings.ContainsAny(strings.ToLower(s), "abcdef")
	case base64Chars.MatchString(s):
		return entropy(s) > 4.5 && strings.ContainsAny(s, "0123456789") && strings.ToLower(s) != s && strings.ToUpper(s) != s
	}
	return false
}

func entropy(s string) float64 {
	counts := map[rune]int{}
	for _, r := range s {
		counts[r]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		p := float64(c) / n
		h -= p * math.Log2(p)
	}
	return h
}

var (
	goInsecure   = regexp.MustCompile(`InsecureSkipVerify\s*:\s*true`)
	jsInsecure   = regexp.MustCompile(`rejectUnauthorized\s*:\s*false|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0`)
	pyCertNone   = regexp.MustCompile(`\bverify_mode\s*=\s*ssl\.CERT_NONE|\bcheck_hostname\s*=\s*False`)
	bashInsecure = regexp.MustCompile(`NODE_TLS_REJECT_UNAUTHORIZED=0|GIT_SSL_NO_VERIFY=(1|true)|PYTHONHTTPSVERIFY=0`)
)

// tlsPatterns reports disabled TLS verification written as settings
// rather than calls.
func (u *unit) tlsPatterns() {
	var re *regexp.Regexp
	switch u.f.Lang {
	case code.Go:
		re = goInsecure
	case code.JavaScript, code.TypeScript:
		re = jsInsecure
	case code.Python:
		re = pyCertNone
	case code.Bash:
		re = bashInsecure
	}
	if !re.Match(u.f.Src) {
		return
	}
	for i, line := range strings.Split(string(u.f.Src), "\n") {
		if m := re.FindString(line); m != "" && !strings.HasPrefix(strings.TrimSpace(line), "//") && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			u.report(result.Warning, result.SecurityIssue, "security.tls_verify", u.enclosing(u.lineStart(i+1)), i+1,
				fmt.Sprintf("TLS certificate verification is turned off (%s), so connections can be intercepted", strings.TrimSpace(m)),
				"Keep verification on; to trust a private CA, add it to the trusted roots (RootCAs, ca option, cafile)")
		}
	}
}
