#!/usr/bin/env python3
"""Peak memory of whole bodies (issue 26), measured with wait4's rusage.

Usage: bench-memory-json.py BIN [JSON_MIB] [BINARY_MIB] [STDIN_MIB]   (defaults 128, 255, 300)

1. nginx on loopback serves a JSON page of JSON_MIB (an array of API-like objects under "data")
   and BINARY_MIB of random bytes. Each row is one run of `call` with --keypath, --all or
   --format json, its output to /dev/null, its peak RSS shown as a multiple of the body. The goal
   is under 3x the body for each.
2. Bodies from standard input: STDIN_MIB of random bytes piped to `--data -` (a server here
   checks the length and SHA-256 it receives), and endless inputs (`yes |`) to `--data -` and
   `--json -`, which must end with exit 64 at --max-body-size.
Not a test: a benchmark, run by `make bench`.
"""
import hashlib, http.server, json, os, random, shutil, socketserver, subprocess, sys, tempfile, threading, time

CEILING = 3.0
binary = os.path.abspath(sys.argv[1])
json_mib = int(sys.argv[2]) if len(sys.argv) > 2 else 128
binary_mib = int(sys.argv[3]) if len(sys.argv) > 3 else 255
stdin_mib = int(sys.argv[4]) if len(sys.argv) > 4 else 300
port = 18292
work = tempfile.mkdtemp(prefix="moya-bench-json-")
os.chmod(work, 0o755)  # nginx's workers run as another user
www = os.path.join(work, "www")
os.makedirs(www)


def write_json_page(path, size):
    """An object whose "data" is an array of items like an API's, `size` bytes in all."""
    rng = random.Random(26)
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"data":[')
        written = 9
        index = 0
        tail = '],"next":null}'
        while True:
            item = ('{"id":%d,"name":"item %d","tags":["alpha","beta \\u00e9"],"price":%d.%02d,"active":%s,'
                    '"owner":{"login":"user%d","url":"https://example.com/users/%d"},"note":"caf\u00e9 \\"quoted\\""}'
                    % (index, index, rng.randrange(1000), rng.randrange(100), "true" if index % 2 else "false",
                       index % 977, index % 977))
            piece = ("," if index else "") + item
            if written + len(piece.encode()) + len(tail) > size:
                break
            f.write(piece)
            written += len(piece.encode())
            index += 1
        f.write(tail)
        written += len(tail)
        f.write(" " * (size - written))  # whitespace: the body is exactly `size` bytes
    return index


items = write_json_page(os.path.join(www, "big.json"), json_mib << 20)
# The worst case for a per-value structure: as many values as the bytes allow. Written in pieces:
# this process's own size would count in its children's peak (ru_maxrss includes the memory a
# forked child has before it runs the binary).
with open(os.path.join(www, "tiny.json"), "w") as f:
    f.write("[")
    pairs = ((json_mib << 20) - 2) // 2 - 1
    for _ in range(pairs // 65536):
        f.write("0," * 65536)
    f.write("0," * (pairs % 65536) + "0]")
with open(os.path.join(www, "big.bin"), "wb") as f:
    for _ in range(binary_mib):
        f.write(os.urandom(1 << 20))

conf = os.path.join(work, "nginx.conf")
with open(conf, "w") as f:
    f.write(f"""worker_processes 1; daemon on; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 64; }}
http {{ access_log off; types {{ application/json json; application/octet-stream bin; }}
  server {{ listen 127.0.0.1:{port}; root {www}; }} }}
""")
nginx = shutil.which("nginx") or "/usr/sbin/nginx"
subprocess.run([nginx, "-c", conf], check=True)

targets = os.path.join(work, "memjson.yaml")
with open(targets, "w") as f:
    f.write(f"""api: memjson
baseURL: http://127.0.0.1:{port}
validation: successCodes
timeout: 600
cases:
  json:
    path: /big.json
    pagination: {{next: {{body: "$.next"}}, items: "$.data"}}
    sample: {{text: x}}
  binary:
    path: /big.bin
    pagination: {{next: {{body: "$.next"}}, items: "$.data"}}
    sample: {{text: x}}
  tiny:
    path: /tiny.json
    pagination: {{next: {{body: "$.next"}}}}
    sample: {{text: x}}
""")


class DigestHandler(http.server.BaseHTTPRequestHandler):
    """Answers a POST with the length and SHA-256 of the body it read."""
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        digest, length = hashlib.sha256(), 0
        left = int(self.headers.get("Content-Length", 0))
        while left:
            piece = self.rfile.read(min(left, 1 << 20))
            if not piece:
                break
            digest.update(piece)
            length += len(piece)
            left -= len(piece)
        answer = json.dumps({"length": length, "sha256": digest.hexdigest()}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


digest_server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), DigestHandler)
threading.Thread(target=digest_server.serve_forever, daemon=True).start()
with open(os.path.join(work, "upload.yaml"), "w") as f:
    f.write(f"""api: upload
baseURL: http://127.0.0.1:{digest_server.server_address[1]}
timeout: 600
cases:
  post: {{method: POST, path: /upload, sample: ok}}
""")
stdin_file = os.path.join(work, "stdin.bin")
with open(stdin_file, "wb") as f:
    for _ in range(stdin_mib):
        f.write(os.urandom(1 << 20))
with open(stdin_file, "rb") as f:
    stdin_digest = hashlib.file_digest(f, "sha256").hexdigest()


def peak(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL):
    """Runs `command`; returns (exit status, seconds, peak RSS in MiB, stderr)."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)
    err = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    return os.waitstatus_to_exitcode(status), time.monotonic() - start, usage.ru_maxrss / 1024, err


def piped(writer, command):
    """`writer | command`: the peak of `command` alone, its stdout (the server's answer) kept."""
    source = subprocess.Popen(writer, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    answer = os.path.join(work, "answer.json")
    with open(answer, "wb") as out:
        result = peak(command, stdin=source.stdout, stdout=out)
    source.stdout.close()
    source.kill()
    source.wait()
    with open(answer, "rb") as f:
        return result + (f.read().decode(errors="replace"),)


rows = []
try:
    t = ["--targets", targets, "--max-body-size", "256M"]
    for case, size in (("json", json_mib), ("binary", binary_mib)):
        for label, extra in (("--keypath data.0.name", ["--keypath", "data.0.name"]), ("--all", ["--all"]),
                             ("--format json", ["--format", "json"])):
            status, seconds, rss, err = peak([binary, "call", "memjson", case] + extra + t)
            rows.append((f"{size} MiB {case} body, {label}", size, status, seconds, rss, err.strip().splitlines()[-1:] or [""]))
    for label, extra in (("--all", ["--all"]), ("--format json", ["--format", "json"])):
        status, seconds, rss, err = peak([binary, "call", "memjson", "tiny"] + extra + t)
        rows.append((f"{json_mib} MiB [0,0,...] body, {label}", json_mib, status, seconds, rss, err.strip().splitlines()[-1:] or [""]))
    u = [binary, "call", "upload", "post", "--targets", os.path.join(work, "upload.yaml")]
    status, seconds, rss, err, answer = piped(["cat", stdin_file], u + ["--data", "-", "--max-body-size", f"{stdin_mib + 1}M"])
    intact = answer.strip() == json.dumps({"length": stdin_mib << 20, "sha256": stdin_digest})
    stdin_rows = [(f"cat {stdin_mib} MiB | --data - ({'arrived intact' if intact else 'NOT INTACT: ' + answer[:80]})",
                   status, seconds, rss, err, intact and status == 0)]
    for option in ("--data", "--json"):
        status, seconds, rss, err, _ = piped(["yes"], u + [option, "-"])
        stdin_rows.append((f"yes | {option} - (endless; 256 MiB cap)", status, seconds, rss, err, status == 64))
finally:
    subprocess.run(["kill", open(os.path.join(work, "nginx.pid")).read().strip()])
    digest_server.shutdown()
    shutil.rmtree(work, ignore_errors=True)

print(f"({items} items in the JSON page; the binary body is random bytes, so not UTF-8: --format json writes it as base64)")
print(f"{'run':42s} {'exit':>4s} {'seconds':>8s} {'peak RSS':>11s} {'x body':>7s}  goal under {CEILING:g}x")
failed = False
for name, size, status, seconds, rss, err in rows:
    ratio = rss / size
    verdict = "  ok" if ratio < CEILING else "  OVER"
    failed |= verdict == "  OVER"
    print(f"{name:42s} {status:4d} {seconds:8.2f} {rss:7.1f} MiB {ratio:6.2f}x{verdict}")
    if status != 0:
        print(f"   (exit {status}: {err[0][:150]})")

print()
print(f"{'body from standard input':52s} {'exit':>4s} {'seconds':>8s} {'peak RSS':>11s}")
for name, status, seconds, rss, err, ok in stdin_rows:
    failed |= not ok
    print(f"{name:52s} {status:4d} {seconds:8.2f} {rss:7.1f} MiB{'  ok' if ok else '  FAILED'}")
    if status != 0:
        print(f"   ({err.strip().splitlines()[-1][:150] if err.strip() else ''})")
sys.exit(1 if failed else 0)
