#!/usr/bin/env python3
"""Peak memory of the outputs that read a whole body (issue 26), measured with wait4's rusage.

Usage: bench-memory-json.py BIN [JSON_MIB] [BINARY_MIB]   (defaults 128 and 255)

nginx on loopback serves a JSON page of JSON_MIB (an array of API-like objects under "data") and
BINARY_MIB of random bytes. Each row is one run of `call` with --keypath, --all or --format json,
its output to /dev/null, its peak RSS shown as a multiple of the body. The goal is under 3x the
body for each. Not a test: a benchmark, run by `make bench`.
"""
import os, random, shutil, subprocess, sys, tempfile, time

CEILING = 3.0
binary = os.path.abspath(sys.argv[1])
json_mib = int(sys.argv[2]) if len(sys.argv) > 2 else 128
binary_mib = int(sys.argv[3]) if len(sys.argv) > 3 else 255
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
""")


def peak(command):
    """Runs `command`, stdout to /dev/null; returns (exit status, seconds, peak RSS in MiB, stderr)."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    return os.waitstatus_to_exitcode(status), time.monotonic() - start, usage.ru_maxrss / 1024, err


rows = []
try:
    t = ["--targets", targets, "--max-body-size", "256M"]
    for case, size in (("json", json_mib), ("binary", binary_mib)):
        for label, extra in (("--keypath data.0.name", ["--keypath", "data.0.name"]), ("--all", ["--all"]),
                             ("--format json", ["--format", "json"])):
            status, seconds, rss, err = peak([binary, "call", "memjson", case] + extra + t)
            rows.append((f"{size} MiB {case} body, {label}", size, status, seconds, rss, err.strip().splitlines()[-1:] or [""]))
finally:
    subprocess.run(["kill", open(os.path.join(work, "nginx.pid")).read().strip()])
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
sys.exit(1 if failed else 0)
