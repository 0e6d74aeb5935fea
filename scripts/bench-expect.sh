#!/usr/bin/env bash
# Benchmark for issue 40's budget: `check --live` of a case with 50 `expect:` assertions on a
# 10 MB JSON body stays within 1.5x the same check without them. Both checks compare the body's
# shape with the sample (so both parse it); the expectations reuse that parse. Measured side by
# side, interleaved, against a local nginx; medians of RUNS. Not a test: `make bench` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

RUNS="${RUNS:-10}"
PORT="${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
BIN="${BIN:-.build/release/moya-cli}"

need() { command -v "$1" >/dev/null 2>&1 || { apt-get install -y -qq "$2" >/dev/null 2>&1 || sudo apt-get install -y -qq "$2" >/dev/null; }; }
need nginx nginx-light

WORK="$(mktemp -d)"
mkdir -p "$WORK/www"
# 10 MB: 90,000 items and a small meta object.
python3 - "$WORK/www/big.json" <<'PY'
import json, sys
items = [{"id": i, "name": f"item {i}", "price": (i * 37) % 1000 + 0.5, "tags": ["a", "b"] if i % 2 else [],
          "owner": {"login": f"user{i % 97}", "active": i % 3 == 0}} for i in range(90000)]
doc = {"meta": {"total": len(items), "page": 1, "next": "https://example.test/items?page=2"}, "items": items}
with open(sys.argv[1], "w") as f:
    json.dump(doc, f)
PY
chmod -R a+rX "$WORK"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1; daemon on; pid $WORK/nginx.pid; error_log $WORK/error.log;
events { worker_connections 64; }
http { access_log off; server { listen 127.0.0.1:$PORT; root $WORK/www; default_type application/json; } }
CONF
nginx -c "$WORK/nginx.conf"
trap 'kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; rm -rf "$WORK"' EXIT
sleep 0.2

target() {
  echo "api: $1"
  echo "baseURL: http://127.0.0.1:$PORT"
  echo "cases:"
  echo "  big:"
  echo "    path: /big.json"
  echo "    sample: {json: {meta: {total: 1, page: 1, next: x}, items: [{id: 0, name: a, price: 0.5, tags: [], owner: {login: u, active: true}}]}}"
}
target plain > "$WORK/plain.yaml"
{
  target asserted
  echo "    expect:"
  echo "      status: 200"
  echo "      headers: {Content-Type: {matches: json}}"
  echo "      time: {\"<\": 60000}"
  echo "      body:"
  # 39 single paths, 4 wildcards and slices, 3 filters and a descendant query: 47, and status,
  # headers and time: 50.
  echo "        \"\$.meta.total\": {\"==\": 90000, type: integer}"
  echo "        \"\$.meta.page\": 1"
  echo "        \"\$.meta.next\": {startsWith: \"https://\", contains: \"page=2\"}"
  for i in $(seq 0 33); do echo "        \"\$.items[$((i * 2500))].id\": $((i * 2500))"; done
  echo "        \"\$.items[-1].name\": \"item 89999\""
  echo "        \"\$.items[0:10].owner.login\": {matches: \"^user[0-9]+\$\"}"
  echo "        \"\$.items[::10000].id\": {type: integer}"
  echo "        \"\$.items[-3:].price\": {\">\": 0}"
  echo "        \"\$.items[*].id\": {count: 90000}"
  echo "        \"\$.items[?@.price > 1000]\": {count: 0}"
  echo "        \"\$.items[?@.owner.login == 'user1' && @.owner.active]\": {exists: true}"
  echo "        \"\$.items[?length(@.tags) == 2]\": {count: {\">\": 1000}}"
  echo "        \"\$.items\": {count: 90000, type: array}"
  echo "        \"\$..total\": 90000"
} > "$WORK/asserted.yaml"
echo "expectations: $(( $(grep -c '^        "\$' "$WORK/asserted.yaml") + 3 )) (body paths, status, headers and time)"

"$BIN" check plain --live --targets "$WORK/plain.yaml" 2>"$WORK/log" || { cat "$WORK/log"; exit 1; }
"$BIN" check asserted --live --targets "$WORK/asserted.yaml" 2>"$WORK/log" || { cat "$WORK/log"; exit 1; }

# CPU time (user + system) is the figure: on a shared 2-CPU machine it moves far less with the
# load than wall time, which is printed beside it.
[ -x /usr/bin/time ] || need /usr/bin/time time
# /usr/bin/time counts CPU time in 10 ms steps; perf stat's task-clock (when perf is there) in
# microseconds.
if command -v perf >/dev/null 2>&1; then
  measure() {
    local start; start=$(date +%s.%N)
    perf stat -x, -e task-clock -o "$WORK/perf" "$BIN" check "$1" --live --targets "$WORK/$1.yaml" 2>/dev/null
    echo "$(echo "$(date +%s.%N) - $start" | bc) $(awk -F, '/task-clock/ {print $1 / 1000}' "$WORK/perf")" > "$WORK/time"
  }
  cpu() { awk '{printf "%.4f", $2}' "$WORK/time"; }
else
  measure() { /usr/bin/time -f '%e %U %S' -o "$WORK/time" "$BIN" check "$1" --live --targets "$WORK/$1.yaml" 2>/dev/null; }
  cpu() { awk '{printf "%.3f", $2 + $3}' "$WORK/time"; }
fi
wall() { awk '{printf "%.3f", $1}' "$WORK/time"; }
plains=(); asserteds=()
for run in $(seq 1 "$RUNS"); do
  measure plain; plain=$(cpu); plain_wall=$(wall)
  measure asserted; asserted=$(cpu); asserted_wall=$(wall)
  printf 'run %d: without expectations %s s CPU (%s s wall)   with 50 %s s CPU (%s s wall)\n' \
    "$run" "$plain" "$plain_wall" "$asserted" "$asserted_wall"
  plains+=("$plain"); asserteds+=("$asserted")
done
# Medians, as bench/RESULTS.md's figures are.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
mid_plain=$(median "${plains[@]}"); mid_asserted=$(median "${asserteds[@]}")
ratio=$(echo "scale=2; $mid_asserted / $mid_plain" | bc)
printf 'median of %d (CPU time): without %.3f s, with 50 expectations %.3f s: %sx (budget: at most 1.5x)\n' \
  "$RUNS" "$mid_plain" "$mid_asserted" "$ratio"
