#!/usr/bin/env bash
# Benchmarks for the budgets in DESIGN.md, measured side by side on this machine as ratios.
# Not a test: numbers vary with the machine; run with `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

need() { command -v "$1" >/dev/null 2>&1 || { apt-get install -y -qq "$2" >/dev/null 2>&1 || sudo apt-get install -y -qq "$2" >/dev/null; }; }
need hyperfine hyperfine
need nginx nginx-light

make --no-print-directory -s build >/dev/null  # the flags of the installed binary
BIN=.build/release/moya-cli
OUT=bench-out
mkdir -p "$OUT"

echo "== 1. stubbed call, whole process, against curl --version"
hyperfine -N --warmup 5 --runs 60 --export-json "$OUT/stub.json" \
  "curl --version" \
  "$BIN call github userProfile ashfurrow --stub --targets targets"

echo "== 2. live GET on loopback, against curl -s (nginx)"
NGX="$(mktemp -d)"
PORT=18181
mkdir -p "$NGX/www"
echo '{"ok":true}' > "$NGX/www/get"
cat > "$NGX/nginx.conf" <<CONF
worker_processes 1; daemon on; pid $NGX/nginx.pid; error_log $NGX/error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:$PORT; root $NGX/www; default_type application/json; } }
CONF
nginx -c "$NGX/nginx.conf"
trap 'kill "$(cat "$NGX/nginx.pid")" 2>/dev/null || true; rm -rf "$NGX"' EXIT
cat > "$NGX/local.yaml" <<YAML
api: local
baseURL: http://127.0.0.1:$PORT
cases:
  get:
    path: /get
    sample: {json: {ok: true}}
YAML
hyperfine -N --warmup 5 --runs 60 --export-json "$OUT/live.json" \
  "curl -s http://127.0.0.1:$PORT/get" \
  "$BIN call local get --targets $NGX/local.yaml"
echo "   the same two, interleaved (curl, moya-cli, curl, ...; 300 each), and the stubbed call:"
python3 scripts/interleaved.py 300 "curl -s http://127.0.0.1:$PORT/get" "$BIN call local get --targets $NGX/local.yaml"
python3 scripts/interleaved.py 300 "curl --version" "$BIN call github userProfile ashfurrow --stub --targets targets"

echo "== 3. loading and validating a 10,000-case file, against libyaml's own parse"
if [ -f scripts/gen-large-target.py ] && [ -f scripts/yaml-parse-baseline.c ]; then
  python3 scripts/gen-large-target.py 10000 > "$OUT/large.yaml"
  cc -O2 -o "$OUT/yaml-parse-baseline" scripts/yaml-parse-baseline.c -lyaml
  hyperfine -N --warmup 2 --runs 15 --export-json "$OUT/load.json" \
    "$OUT/yaml-parse-baseline $OUT/large.yaml 1" \
    "$BIN validate $OUT/large.yaml"
fi

python3 - "$OUT" <<'PY'
import json, sys, os
out = sys.argv[1]
def ratio(name):
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path): return
    r = json.load(open(path))["results"]
    base, ours = r[0]["mean"], r[1]["mean"]
    print(f"{name:6s} baseline {base*1000:7.2f} ms   moya-cli {ours*1000:7.2f} ms   ratio {ours/base:5.2f}x")
for n in ("stub", "live", "load"): ratio(n)
PY

echo "== 4. check --live --jobs 16 over 1,000 cases, against 1,000 sequential curl processes"
bash scripts/bench-check.sh

echo "== 5. peak memory of large transfers (ceiling 30 MiB each), against curl"
python3 scripts/bench-memory.py "$BIN" 1024
