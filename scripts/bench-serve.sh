#!/usr/bin/env bash
# Benchmark of `moya-cli serve` (issue 30): the release binary serving a small JSON sample, and
# nginx serving the same bytes from a file, each on a loopback port under the same load (wrk, or a
# Python load loop bounded in time when wrk is missing), in ROUNDS alternating rounds so that the
# load of a shared machine falls on both alike; prints requests per second of each round, the
# ratio of the medians, the load average, and serve's resident memory before and after the load
# (flat memory).
# Both log each request to a file (nginx's access_log, serve's stderr): what each does by default.
# serve runs as a front-end's mock does (issue 41): CORS and the request checks on (the defaults);
# its rounds alternate plain requests and requests from a page (an Origin header, which serve
# answers with the CORS headers), and each must reach nginx's rate.
set -euo pipefail
BIN=${BIN:-.build/release/moya-cli}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-64}
ROUNDS=${ROUNDS:-3}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$work/targets" "$work/root" "$work/nginx"
cat > "$work/targets/bench.yaml" <<'YAML'
api: bench
baseURL: https://bench.invalid
cases:
  item:
    path: /item.json
    sample: {json: {id: 42, name: Lamp, price: 19.5, tags: [home, light], inStock: true}}
YAML
# The same bytes for nginx: the body serve answers with, as a stubbed call prints it.
"$BIN" call bench item --stub --targets "$work/targets" > "$work/root/item.json"
chmod -R a+rX "$work"  # nginx's workers may run as another user

serve_port=$(free_port)
"$BIN" serve bench --port "$serve_port" --targets "$work/targets" 2> "$work/serve.log" &
serve_pid=$!
pids+=("$serve_pid")

nginx_port=$(free_port)
cat > "$work/nginx/nginx.conf" <<CONF
worker_processes $(nproc);
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 4096; }
http {
    access_log $work/nginx/access.log;
    client_body_temp_path $work/nginx;
    proxy_temp_path $work/nginx;
    fastcgi_temp_path $work/nginx;
    uwsgi_temp_path $work/nginx;
    scgi_temp_path $work/nginx;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/root;
        default_type application/json;
    }
}
CONF
"$NGINX" -c "$work/nginx/nginx.conf" -p "$work/nginx" &
pids+=($!)

for _ in $(seq 100); do
    if curl -sf "http://127.0.0.1:$serve_port/item.json" >/dev/null && curl -sf "http://127.0.0.1:$nginx_port/item.json" >/dev/null; then
        break
    fi
    sleep 0.1
done
cmp <(curl -s "http://127.0.0.1:$serve_port/item.json") <(curl -s "http://127.0.0.1:$nginx_port/item.json")
# CORS is on, as measured: a request from a page gets its origin back.
curl -s -i -H "Origin: http://localhost:3000" "http://127.0.0.1:$serve_port/item.json" |
    grep -q $'^Access-Control-Allow-Origin: http://localhost:3000\r$'

rss() { awk '/VmRSS/ {print $2}' "/proc/$serve_pid/status"; }

# Requests per second for URL over DURATION seconds; a second argument is a header every request
# carries (`Origin: ...`).
load() {
    if command -v wrk >/dev/null; then
        wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" ${2:+-H "$2"} "$1" | awk '/Requests\/sec/ {print $2}'
    else
        python3 - "$1" "$DURATION" "$CONNECTIONS" "${2:-}" <<'PY'
import http.client, sys, threading, time, urllib.parse
url, duration, connections = urllib.parse.urlsplit(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
headers = dict([sys.argv[4].split(": ", 1)]) if sys.argv[4] else {}
counts, stop = [0] * connections, time.monotonic() + duration
def run(index):
    connection = http.client.HTTPConnection(url.hostname, url.port)
    while time.monotonic() < stop:
        connection.request("GET", url.path, headers=headers)
        connection.getresponse().read()
        counts[index] += 1
threads = [threading.Thread(target=run, args=(i,)) for i in range(connections)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(f"{sum(counts) / duration:.2f}")
PY
    fi
}

load "http://127.0.0.1:$serve_port/item.json" >/dev/null  # warm-up, as long as a round
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
before=$(rss)
serve_rates=()
cors_rates=()
nginx_rates=()
for _ in $(seq "$ROUNDS"); do
    serve_rates+=("$(load "http://127.0.0.1:$serve_port/item.json")")
    nginx_rates+=("$(load "http://127.0.0.1:$nginx_port/item.json")")
    cors_rates+=("$(load "http://127.0.0.1:$serve_port/item.json" "Origin: http://localhost:3000")")
done
after=$(rss)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
serve_rate=$(median "${serve_rates[@]}")
cors_rate=$(median "${cors_rates[@]}")
nginx_rate=$(median "${nginx_rates[@]}")

tool=$(command -v wrk >/dev/null && echo "wrk -t2 -c$CONNECTIONS" || echo "Python loop, $CONNECTIONS connections")
echo "serve vs nginx, $(wc -c < "$work/root/item.json") bytes of JSON, $ROUNDS rounds of ${DURATION} s each, $tool, $(nproc) cores"
printf '| serve | %s req/s (median; rounds: %s) |\n' "$serve_rate" "${serve_rates[*]}"
printf '| nginx | %s req/s (median; rounds: %s) |\n' "$nginx_rate" "${nginx_rates[*]}"
printf '| serve, from a page (Origin: CORS headers added) | %s req/s (median; rounds: %s) |\n' "$cors_rate" "${cors_rates[*]}"
awk -v s="$serve_rate" -v n="$nginx_rate" 'BEGIN { printf "| ratio serve/nginx | %.2f | %s |\n", s / n, (s >= n ? "goal met" : "goal NOT met") }'
awk -v s="$cors_rate" -v n="$nginx_rate" 'BEGIN { printf "| ratio serve (CORS)/nginx | %.2f | %s |\n", s / n, (s >= n ? "goal met" : "goal NOT met") }'
printf '| load average | %s before, %s after |\n' "$load_before" "$load_after"
printf '| serve RSS | %s KiB before, %s KiB after all rounds |\n' "$before" "$after"
echo "($(wc -l < "$work/serve.log") lines logged by serve)"
