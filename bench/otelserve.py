"""What bench/otel-pair.py and bench/otel-perf.py share: the bench row's
request bodies, a loopback OTLP receiver, `judge serve` started with
span export on or off, a process's CPU time, and one round of bench/load."""
import json, os, subprocess, tempfile, threading
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler


def add_load_args(ap, rounds):
    """The arguments both scripts take for the load: bench/load's binary,
    the corpus, the rounds (default rounds) and one round's duration."""
    ap.add_argument("--load", required=True, help="bench/load's binary")
    ap.add_argument("--corpus", default="../shared/testdata/mcp-tools/bench-corpus.json")
    ap.add_argument("--rounds", type=int, default=rounds)
    ap.add_argument("--duration", default="4s", help="one round's load on one server")


def write_bodies(corpus):
    """The bodies (each case's valid and invalid document against its schema,
    as bench/run writes them: corpus.ValidateBody) in a temporary JSONL file;
    returns its name (the caller removes it)."""
    bodies = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    with open(corpus) as f:
        for c in json.load(f)["cases"]:
            for doc in (c["valid"], c["invalid"]):
                out = json.loads(doc) if isinstance(doc, str) else doc
                bodies.write(json.dumps({"output": out, "expected_schema": c["schema"]}, separators=(",", ":")) + "\n")
    bodies.close()
    return bodies.name


def start_sink():
    """Starts an OTLP/HTTP receiver on loopback that reads and discards
    every export; returns its URL and [exports, bytes] received so far."""
    exports = [0, 0]

    class Sink(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            exports[0] += 1
            exports[1] += len(body)
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *a):
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # a server killed at the end resets its connection: not worth a traceback

    sink = Server(("127.0.0.1", 0), Sink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d" % sink.server_address[1], exports


def start_serve(binary, sink_url, export, extra_env=None, on_line=None):
    """Starts `binary serve` on a loopback port, exporting spans to sink_url
    when export is true (no OTEL_ variable of this process is passed on;
    extra_env is added); returns the process and its URL once it listens.
    on_line, if given, is called with every later line of its stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    env.update(extra_env or {})
    if export:
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = sink_url
    p = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:0"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = None
    while url is None:
        line = p.stderr.readline()
        if not line:
            raise SystemExit("%s exited before it listened" % binary)
        try:
            m = json.loads(line)
        except ValueError:
            continue
        url = m.get("url") if "listening" in m.get("msg", "") else None
    # drain stderr (the access log) so the pipe never fills
    threading.Thread(target=lambda: [on_line and on_line(ln) for ln in p.stderr], daemon=True).start()
    return p, url


def cpu(pid):
    """The process's CPU time so far (user + system, every thread), seconds."""
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / 100.0


def load(load_bin, url, bodies, d):
    """One round of bench/load (4 connections, duration d) on url's
    /validate; returns the requests answered (all must be 200)."""
    return load_all(load_bin, [url], bodies, d)[0]


def load_all(load_bin, urls, bodies, d):
    """load on every URL at once, one bench/load process each; returns
    the requests each answered."""
    ps = [subprocess.Popen([load_bin, "-url", url, "-path", "/validate", "-bodies", bodies, "-conns", "4", "-duration", d],
                           stdout=subprocess.PIPE, text=True) for url in urls]
    ns = []
    for p in ps:
        out = p.communicate()[0]
        if p.returncode != 0:
            raise SystemExit("bench/load exited with %d" % p.returncode)
        rep = json.loads(out)
        if rep["requests"] == 0 or set(rep["status"]) != {"200"}:
            raise SystemExit("bench/load: %s" % out[:500])
        ns.append(rep["requests"])
    return ns
