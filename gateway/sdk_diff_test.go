package gateway_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// The differential test of issue 24: the official TypeScript SDK client
// (gateway/testdata/sdkclient/diff.mjs) and the Go SDK client
// (sdk_diff_go_test.go) run each reference server's feature table directly
// and through judge gateway, over stdio and over streamable HTTP, and every
// feature must come out the same — but for judge's _meta.judge, which the
// clients' normalization drops — unless the ledger (sdk_gaps_test.go) lists
// it as a known gap, in which case it must still differ.

// sdkClientDir is the npm package of the differential test, installed by
// scripts/test with npm ci.
const sdkClientDir = "testdata/sdkclient"

// featureLine is one line the feature table prints (or the Go client
// builds): what one feature looked like to the client.
type featureLine struct {
	Feature       string          `json:"feature"`
	Accepted      bool            `json:"accepted"`
	Answer        json.RawMessage `json:"answer"`
	Notifications json.RawMessage `json:"notifications"`
	Errors        json.RawMessage `json:"errors"`
}

// sdkFixture is what the servers run on: the directories server-filesystem
// is given and the client's roots.
type sdkFixture struct {
	node      string
	modules   string // node_modules of the sdkclient package
	rootA     string // in the client's roots and on server-filesystem's command line
	rootB     string // on server-filesystem's command line only
	inside    string // a file under rootA
	outside   string // a file under rootB: outside the client's roots
	image     string // a PNG under rootA
	memoryDir string // where each server-memory run gets a fresh file
}

// needSDKClient skips the test when Node.js or the npm install is absent,
// and says how to get them.
func needSDKClient(t *testing.T) *sdkFixture {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the differential test needs Node.js 20+ and npm (scripts/test installs its packages)")
	}
	modules, err := filepath.Abs(filepath.Join(sdkClientDir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"@modelcontextprotocol/sdk/package.json", "@modelcontextprotocol/server-everything/dist/index.js",
		"@modelcontextprotocol/server-filesystem/dist/index.js", "@modelcontextprotocol/server-memory/dist/index.js"} {
		if _, err := os.Stat(filepath.Join(modules, p)); err != nil {
			t.Skipf("%s is not installed: run scripts/test (npm ci in gateway/%s): %v", p, sdkClientDir, err)
		}
	}
	base := t.TempDir()
	// Resolve symbolic links (macOS's /var): server-filesystem compares
	// real paths.
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	f := &sdkFixture{node: node, modules: modules, rootA: filepath.Join(base, "a"), rootB: filepath.Join(base, "b"), memoryDir: filepath.Join(base, "memory")}
	f.inside, f.outside, f.image = filepath.Join(f.rootA, "notes.txt"), filepath.Join(f.rootB, "secret.txt"), filepath.Join(f.rootA, "tiny.png")
	png := tinyPNG()
	for _, d := range []string{f.rootA, f.rootB, f.memoryDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string][]byte{f.inside: []byte("hello from the roots\n"), f.outside: []byte("outside the client's roots\n"), f.image: png} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// tinyPNG is a 1×1 PNG.
func tinyPNG() []byte {
	return []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
}

// serverCmd is the command line that runs a reference server over stdio.
// memoryFile is server-memory's file.
func (f *sdkFixture) serverCmd(server, memoryFile string) (args []string, env map[string]string) {
	js := filepath.Join(f.modules, "@modelcontextprotocol", "server-"+server, "dist", "index.js")
	switch server {
	case "everything":
		return []string{f.node, js, "stdio"}, nil
	case "filesystem":
		return []string{f.node, js, f.rootA, f.rootB}, nil
	default:
		return []string{f.node, js}, map[string]string{"MEMORY_FILE_PATH": memoryFile}
	}
}

// memoryFile is a fresh file for one server-memory run.
func (f *sdkFixture) memoryFile(run string) string {
	return filepath.Join(f.memoryDir, strings.ReplaceAll(run, "/", "-")+".jsonl")
}

// registryFor writes a registry holding one mcp_server manifest that runs
// the server over stdio, the way a user puts judge in front of it.
func (f *sdkFixture) registryFor(t *testing.T, server, memoryFile string) string {
	t.Helper()
	args, env := f.serverCmd(server, memoryFile)
	var b strings.Builder
	fmt.Fprintf(&b, "tool_id: %s\ntool_type: mcp_server\nversion: \"1.0.0\"\nexecutor: subprocess\ndescription: The MCP reference server %s\nconfig:\n  transport: stdio\n  command: %q\n  args: [", server, server, args[0])
	for i, a := range args[1:] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", a)
	}
	b.WriteString("]\n  startup_timeout: 60\n")
	if len(env) > 0 {
		b.WriteString("  env:\n")
		for k, v := range env {
			fmt.Fprintf(&b, "    %s: %q\n", k, v)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, server+".yaml"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startGatewayHTTP starts judge gateway --http on a loopback port in front
// of the server and returns its URL.
func (f *sdkFixture) startGatewayHTTP(t *testing.T, server, memoryFile string) string {
	t.Helper()
	return startHTTP(t, exec.Command(judgeBin, "gateway", "--tools", f.registryFor(t, server, memoryFile), "--http", "127.0.0.1:0"))
}

// startEverythingHTTP starts server-everything's own streamable HTTP
// transport on a free loopback port: the direct HTTP baseline.
func (f *sdkFixture) startEverythingHTTP(t *testing.T) string {
	t.Helper()
	return everythingHTTP(t, f.node, filepath.Join(f.modules, "@modelcontextprotocol/server-everything/dist/index.js"))
}

// everythingHTTP starts server-everything (its script js, run by node)
// on its streamable HTTP transport on a free loopback port and returns
// its URL.
func everythingHTTP(t *testing.T, node, js string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(node, js, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	return startListening(t, cmd, nil, func(line []byte) string {
		if bytes.Contains(line, []byte("listening on port "+port)) {
			return "http://127.0.0.1:" + port + "/mcp"
		}
		return ""
	})
}

// startListening starts cmd and returns the URL found reads in one of its
// stderr lines; the process is stopped at the test's end. Its stderr
// goes to logs too (when not nil).
func startListening(t *testing.T, cmd *exec.Cmd, logs *sharedtest.SyncBuffer, found func([]byte) string) string {
	t.Helper()
	if logs == nil {
		logs = &sharedtest.SyncBuffer{}
	}
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		pw.Close()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			if u := found(sc.Bytes()); u != "" && !sent {
				urls <- u
				sent = true
			}
		}
		if !sent {
			close(urls)
		}
	}()
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatalf("%s ended without listening:\n%s", cmd.Path, logs)
		}
		return u
	case <-time.After(time.Minute):
		t.Fatalf("%s did not listen within a minute:\n%s", cmd.Path, logs)
	}
	return ""
}

// runTS runs the TypeScript SDK's feature table over a transport: a stdio
// command line or a streamable HTTP URL.
func (f *sdkFixture) runTS(ctx context.Context, server string, stdio []string, env map[string]string, url string) (map[string]featureLine, []string, error) {
	spec := map[string]any{"server": server, "roots": []string{f.rootA}, "inside": f.inside, "outside": f.outside, "image": f.image}
	if url != "" {
		spec["url"] = url
	} else {
		spec["stdio"] = map[string]any{"command": stdio[0], "args": stdio[1:], "env": env}
	}
	raw, _ := json.Marshal(spec)
	cmd := exec.CommandContext(ctx, f.node, filepath.Join(sdkClientDir, "diff.mjs"), string(raw))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("diff.mjs %s: %w\nstderr:\n%s\nstdout:\n%s", server, err, stderr.String(), out)
	}
	lines := map[string]featureLine{}
	var order []string
	for l := range bytes.Lines(out) {
		var fl featureLine
		if err := json.Unmarshal(l, &fl); err != nil {
			return nil, nil, fmt.Errorf("diff.mjs %s: line %q: %w", server, l, err)
		}
		lines[fl.Feature] = fl
		order = append(order, fl.Feature)
	}
	return lines, order, nil
}

// sdkRun names one run of a feature table.
type sdkRun struct {
	server, transport string // transport: stdio or http
	viaGateway        bool
}

func (r sdkRun) String() string {
	via := "direct"
	if r.viaGateway {
		via = "gateway"
	}
	return r.server + "/" + r.transport + "/" + via
}

// sdkServers are the reference servers and whether each serves streamable
// HTTP itself; for the others the gateway over HTTP is compared with the
// direct stdio run.
var sdkServers = []struct {
	name string
	http bool
}{{"everything", true}, {"filesystem", false}, {"memory", false}}

// TestSDKDiffTypeScript runs the TypeScript SDK client's feature table
// against the three reference servers, directly and through judge gateway,
// over stdio and streamable HTTP, and compares feature by feature.
func TestSDKDiffTypeScript(t *testing.T) {
	t.Parallel()
	f := needSDKClient(t)
	runDiff(t, f, "ts", f.runTS)
}

// featureTable runs one client's feature table against a server over a
// transport: a stdio command line or a streamable HTTP URL.
type featureTable func(ctx context.Context, server string, stdio []string, env map[string]string, url string) (map[string]featureLine, []string, error)

// runDiff runs a client's feature table (run) against each reference
// server, directly and through judge gateway, over stdio and streamable
// HTTP, all at once, and holds the comparison to the ledger.
func runDiff(t *testing.T, f *sdkFixture, client string, run featureTable) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	type outcome struct {
		lines map[string]featureLine
		order []string
		err   error
	}
	results := map[sdkRun]*outcome{}
	var wg sync.WaitGroup
	start := func(r sdkRun, stdio []string, env map[string]string, url string) {
		o := &outcome{}
		results[r] = o
		wg.Go(func() { o.lines, o.order, o.err = run(ctx, r.server, stdio, env, url) })
	}
	for _, s := range sdkServers {
		direct := sdkRun{s.name, "stdio", false}
		args, env := f.serverCmd(s.name, f.memoryFile(client+"-"+direct.String()))
		start(direct, args, env, "")
		gw := sdkRun{s.name, "stdio", true}
		start(gw, []string{judgeBin, "gateway", "--tools", f.registryFor(t, s.name, f.memoryFile(client+"-"+gw.String()))}, nil, "")
		gwHTTP := sdkRun{s.name, "http", true}
		start(gwHTTP, nil, nil, f.startGatewayHTTP(t, s.name, f.memoryFile(client+"-"+gwHTTP.String())))
		if s.http {
			start(sdkRun{s.name, "http", false}, nil, nil, f.startEverythingHTTP(t))
		}
	}
	wg.Wait()
	for r, o := range results {
		if o.err != nil {
			t.Fatalf("%s: %v", r, o.err)
		}
	}
	var table []diffRow
	for _, s := range sdkServers {
		for _, transport := range []string{"stdio", "http"} {
			direct := results[sdkRun{s.name, transport, false}]
			if direct == nil {
				direct = results[sdkRun{s.name, "stdio", false}]
			}
			gw := results[sdkRun{s.name, transport, true}]
			table = append(table, compareRuns(client, s.name, transport, direct.order, direct.lines, gw.lines)...)
		}
	}
	checkLedger(t, client, table)
}

// diffRow is one feature of one server and transport, direct against
// through the gateway.
type diffRow struct {
	client, server, transport, feature string
	direct, gateway                    string // short summaries
	diff                               string // "" when equal: else where they first differ
}

// compareRuns compares the gateway run with the direct one, feature by
// feature in the direct run's order (a feature the gateway run lacks is a
// difference).
func compareRuns(client, server, transport string, order []string, direct, gw map[string]featureLine) []diffRow {
	var rows []diffRow
	for _, feat := range order {
		d, g := direct[feat], gw[feat]
		row := diffRow{client: client, server: server, transport: transport, feature: feat, direct: summary(d)}
		if _, ok := gw[feat]; !ok {
			row.gateway, row.diff = "missing", "the gateway run has no such feature"
			rows = append(rows, row)
			continue
		}
		row.gateway = summary(g)
		row.diff = firstDiff(d, g)
		rows = append(rows, row)
	}
	return rows
}

// summary is a feature line in a few words: accepted or the error the
// client threw, and whether the answer is an error result.
func summary(l featureLine) string {
	if !l.Accepted {
		var a struct {
			Error struct {
				Code    any
				Message string
			}
		}
		_ = json.Unmarshal(l.Answer, &a)
		if a.Error.Code != nil {
			return fmt.Sprintf("threw %v %s", a.Error.Code, truncate(a.Error.Message, 60))
		}
		return "threw " + truncate(a.Error.Message, 60)
	}
	s := "accepted"
	if bytes.Contains(l.Answer, []byte(`"isError":true`)) {
		s += ", isError"
	}
	var n []any
	if json.Unmarshal(l.Notifications, &n) == nil && len(n) > 0 {
		s += fmt.Sprintf(", %d notification(s)", len(n))
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// firstDiff says where two feature lines first differ, "" when they are
// equal.
func firstDiff(d, g featureLine) string {
	if d.Accepted != g.Accepted {
		return fmt.Sprintf("accepted: direct %v, gateway %v (%s)", d.Accepted, g.Accepted, truncate(string(g.Answer), 160))
	}
	for _, part := range []struct {
		name string
		a, b json.RawMessage
	}{{"answer", d.Answer, g.Answer}, {"notifications", d.Notifications, g.Notifications}, {"errors", d.Errors, g.Errors}} {
		var a, b any
		_ = json.Unmarshal(orNull(part.a), &a)
		_ = json.Unmarshal(orNull(part.b), &b)
		if p := jsonDiff(part.name, a, b); p != "" {
			return p
		}
	}
	return ""
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

// jsonDiff is the first path at which two decoded JSON values differ, with
// the two values there, or "".
func jsonDiff(path string, a, b any) string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range av {
			keys[k] = true
		}
		for k := range bv {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		slices.Sort(sorted)
		for _, k := range sorted {
			x, inA := av[k]
			y, inB := bv[k]
			switch {
			case !inB:
				return fmt.Sprintf("%s.%s: only direct (%s)", path, k, short(x))
			case !inA:
				return fmt.Sprintf("%s.%s: only gateway (%s)", path, k, short(y))
			}
			if p := jsonDiff(path+"."+k, x, y); p != "" {
				return p
			}
		}
		return ""
	case []any:
		bv, ok := b.([]any)
		if !ok {
			break
		}
		// A list of named things (tools, prompts): say which name differs.
		for i := range min(len(av), len(bv)) {
			if p := jsonDiff(fmt.Sprintf("%s[%s]", path, itemName(av[i], i)), av[i], bv[i]); p != "" {
				return p
			}
		}
		if len(av) != len(bv) {
			return fmt.Sprintf("%s: %d items direct, %d through the gateway", path, len(av), len(bv))
		}
		return ""
	}
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return fmt.Sprintf("%s: direct %s, gateway %s", path, short(a), short(b))
}

func itemName(v any, i int) string {
	if m, ok := v.(map[string]any); ok {
		if n, ok := m["name"].(string); ok {
			return n
		}
	}
	return strconv.Itoa(i)
}

func short(v any) string {
	b, _ := json.Marshal(v)
	return truncate(string(b), 100)
}

// checkLedger logs the table and holds each row to the ledger: a row not in
// it must be equal, a row in it must still differ (a fixed gap fails until
// it is taken out of the ledger).
func checkLedger(t *testing.T, client string, rows []diffRow) {
	t.Helper()
	gaps := knownGaps()
	var b strings.Builder
	fmt.Fprintf(&b, "client %s: feature | server | transport | direct | gateway | verdict\n", client)
	for _, r := range rows {
		key := gapKey{r.client, r.server, r.transport, r.feature}
		why, known := gaps[key]
		verdict := "equal"
		switch {
		case r.diff == "" && known:
			verdict = "FIXED (remove from the ledger)"
			t.Errorf("%s %s/%s %s: equal now, but the ledger lists it as a gap (%s): take it out of knownGaps", client, r.server, r.transport, r.feature, why)
		case r.diff != "" && known:
			verdict = "known gap: " + r.diff
		case r.diff != "":
			verdict = "DIFFERS: " + r.diff
			t.Errorf("%s %s/%s %s: direct and gateway differ: %s\n\tledger line, if it is a known gap: {%q, %q, %q, %q}: \"…\",", client, r.server, r.transport, r.feature, r.diff, r.client, r.server, r.transport, r.feature)
		}
		fmt.Fprintf(&b, "%s | %s | %s | %s | %s | %s\n", r.feature, r.server, r.transport, r.direct, r.gateway, verdict)
		delete(gaps, key)
	}
	for k, why := range gaps {
		if k.client == client {
			t.Errorf("the ledger lists %v (%s), which no run tried", k, why)
		}
	}
	t.Log("\n" + b.String())
}
