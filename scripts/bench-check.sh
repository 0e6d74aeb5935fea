#!/usr/bin/env bash
# Benchmark for the DESIGN.md budget "check --live --jobs 16 over 1,000 cases: at least 5x faster
# than 1,000 sequential curl processes". Measured side by side against a local nginx serving a
# small JSON file; every case has its own path, so no two requests are identical (in-flight
# coalescing does not help). Not a test: run it by hand (RUNS=, CASES=, JOBS=, PORT= tune it).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

CASES="${CASES:-1000}"
JOBS="${JOBS:-16}"
RUNS="${RUNS:-5}"
# A free loopback port, unless PORT is given (other benchmarks may run at the same time).
PORT="${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"

need() { command -v "$1" >/dev/null 2>&1 || { apt-get install -y -qq "$2" >/dev/null 2>&1 || sudo apt-get install -y -qq "$2" >/dev/null; }; }
need nginx nginx-light
need curl curl

make --no-print-directory -s build >/dev/null  # the flags of the installed binary
BIN=.build/release/moya-cli

WORK="$(mktemp -d)"
mkdir -p "$WORK/www"
printf '{"id":1,"name":"item","tags":["a","b"],"owner":{"login":"moya"}}\n' > "$WORK/www/item.json"
chmod -R a+rX "$WORK"   # nginx's workers run as an unprivileged user when started as root
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1; daemon on; pid $WORK/nginx.pid; error_log $WORK/error.log;
events { worker_connections 1024; }
http {
  access_log off; keepalive_requests 100000;
  server { listen 127.0.0.1:$PORT; root $WORK/www; default_type application/json;
           location /items/ { try_files /item.json =404; } }
}
CONF
nginx -c "$WORK/nginx.conf"
trap 'kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; rm -rf "$WORK"' EXIT
sleep 0.2

{
  echo "api: bench"
  echo "baseURL: http://127.0.0.1:$PORT"
  echo "validation: successCodes"
  echo "cases:"
  for i in $(seq 1 "$CASES"); do
    echo "  item$i:"
    echo "    path: /items/$i"
    echo "    sample: {json: {id: $i, name: item, tags: [a], owner: {login: moya}}}"
  done
} > "$WORK/bench.yaml"
for i in $(seq 1 "$CASES"); do echo "http://127.0.0.1:$PORT/items/$i"; done > "$WORK/urls"

# Sanity: every case passes live, so the timing measures real successful checks.
"$BIN" check bench --live --jobs "$JOBS" --targets "$WORK/bench.yaml" 2>"$WORK/check.log" || { tail -5 "$WORK/check.log"; exit 1; }
tail -1 "$WORK/check.log"

now() { date +%s.%N; }
best_curl=""; best_check=""
for run in $(seq 1 "$RUNS"); do
  start=$(now)
  while read -r url; do curl -s -o /dev/null "$url"; done < "$WORK/urls"
  curl_time=$(echo "$(now) - $start" | bc)
  start=$(now)
  "$BIN" check bench --live --jobs "$JOBS" --targets "$WORK/bench.yaml" 2>/dev/null
  check_time=$(echo "$(now) - $start" | bc)
  printf 'run %d: %d sequential curl processes %6.3f s   check --live --jobs %d %6.3f s\n' "$run" "$CASES" "$curl_time" "$JOBS" "$check_time"
  if [ -z "$best_curl" ] || [ "$(echo "$curl_time < $best_curl" | bc)" = 1 ]; then best_curl=$curl_time; fi
  if [ -z "$best_check" ] || [ "$(echo "$check_time < $best_check" | bc)" = 1 ]; then best_check=$check_time; fi
done
ratio=$(echo "scale=2; $best_curl / $best_check" | bc)
printf 'best of %d: curl %.3f s, check %.3f s: check is %sx faster (budget: at least 5x)\n' "$RUNS" "$best_curl" "$best_check" "$ratio"
