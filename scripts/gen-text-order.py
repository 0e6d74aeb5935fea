#!/usr/bin/env python3
"""Writes scripts/text-order.txt: the functions everyday commands run, for the release link to place
together at the start of the binary's code (gold's --section-ordering-file; see the Makefile).

Usage: gen-text-order.py BIN   (a release build; needs valgrind; the live calls go to a loopback
                                 server this script starts)

Why: a page fault on the binary maps the 64 KiB around the page it needs (the kernel's
fault-around), so the code a command reaches costs memory by the 64 KiB block, and the run-time
functions it calls lie scattered over 25 MB of code. Packed, the same functions touch fewer
blocks. The list is every function of the binary that callgrind sees run in the commands below,
in the order first seen; functions it misses are placed after, as before. Not run by CI.
"""
import glob, http.server, os, re, shutil, subprocess, sys, tempfile, threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
binary = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp(prefix="moya-text-order-")
stripped = os.path.join(work, "moya-cli")
# valgrind 3.19 cannot read the compressed debug sections of the static release build.
subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"id":1,"name":"item","tags":["a","b"],"owner":{"login":"moya"}}\n'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args): pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}"
live = os.path.join(work, "live.yaml")
with open(live, "w") as f:
    f.write(f"api: local\nbaseURL: {base}\ncases:\n")
    for i in range(40):
        f.write(f"  item{i}:\n    path: /items/{i}\n    sample: {{json: {{id: 1, name: item, tags: [a], owner: {{login: moya}}}}}}\n")
large = os.path.join(work, "large.yaml")
with open(large, "w") as f:
    subprocess.run([sys.executable, os.path.join(HERE, "gen-large-target.py"), "2000"], stdout=f, check=True)
targets = os.path.join(ROOT, "targets")
commands = [
    ["--version"],
    ["validate", os.path.join(targets, "github.yaml")],
    ["validate", large],
    ["list", "--targets", targets],
    ["list", "github", "--targets", targets],
    ["list", "large", "--targets", large],
    ["call", "github", "zen", "--stub", "--targets", targets],
    ["call", "github", "userProfile", "ashfurrow", "--stub", "--targets", targets],
    ["curl", "github", "zen", "--targets", targets],
    ["call", "local", "item1", "--targets", live],
    ["check", "github", "--targets", targets],
    ["check", "large", "--targets", large],
    ["check", "local", "--live", "--jobs", "4", "--targets", live],
]
order, seen = [], set()
# The load cache's entries go to a scratch folder, not the user's: the first stubbed call writes
# them (a miss), the second reads one (a hit), so both roads are in the order.
environment = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
for arguments in commands:
    out = os.path.join(work, "cg.out")
    for old in glob.glob(out + "*"): os.remove(old)
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", stripped] + arguments,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work, env=environment)
    for path in sorted(glob.glob(out + "*")):
        # Compressed names: "(id) name" the first time, "(id)" after; objects share one table
        # (ob=, cob=), functions another (fn=, cfn=).
        objects, functions, current_object = {}, {}, None
        for line in open(path, errors="replace"):
            match = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if not match:
                continue
            kind, number, name = match.groups()
            table = objects if kind.endswith("ob") else functions
            if name: table[number] = name
            if kind == "ob":
                current_object = objects.get(number)
            elif kind == "fn" and current_object and current_object.endswith("/moya-cli"):
                name = functions.get(number)
                # Skipped: addresses, callgrind's pseudo-functions ("(below main)") and its names
                # for a recursion's deeper levels ("name'2"), which are no symbols.
                if name and name not in seen and not name.startswith(("0x", "(")) and "'" not in name:
                    seen.add(name)
                    order.append(name)
    print(f"{' '.join(arguments)[:60]:60s} {len(order):6d} functions so far", file=sys.stderr)
server.shutdown()
with open(os.path.join(HERE, "text-order.txt"), "w") as f:
    for name in order:
        f.write(f".text.{name}\n")
shutil.rmtree(work, ignore_errors=True)
print(f"wrote scripts/text-order.txt: {len(order)} functions", file=sys.stderr)
