#!/usr/bin/env bash
# Benchmarks for the budgets in DESIGN.md and issue 16, measured side by side on this machine as
# ratios. Not a test: numbers vary with the machine and its load; run with `make bench`.
#
#   1. scripts/bench-scale.py: every figure of issue 16 (stubbed call, live GET, validate, list
#      and check of 10,000 cases, 50,000 cases, a live sweep against curl --parallel, a 1 GiB
#      download), each interleaved with its reference, as one table. BENCH_RUNS=N (default 20).
#   2. scripts/bench-check.sh: check --live --jobs 16 against 1,000 sequential curl processes.
#   3. scripts/bench-memory.py: peak memory of large transfers against their 30 MiB ceiling.
#   4. scripts/bench-memory-json.py: peak memory of --keypath, --all and --format json on a 128 MiB
#      JSON body and a 255 MiB binary one (goal: under 3x the body), and of bodies from stdin.
#   5. scripts/bench-expect.sh: check --live with 50 expect: assertions on a 10 MB JSON body,
#      against the same check without them (issue 40: at most 1.5x).
# bench/RESULTS.md keeps the figures measured, with the machine and the date.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

need() { command -v "$1" >/dev/null 2>&1 || { apt-get install -y -qq "$2" >/dev/null 2>&1 || sudo apt-get install -y -qq "$2" >/dev/null; }; }
need nginx nginx-light
need curl curl
need cc gcc
[ -x /usr/bin/time ] || need time time

make --no-print-directory -s build >/dev/null  # the flags of the installed binary
BIN=.build/release/moya-cli

echo "== 1. issue 16: performance at scale ($(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) CPUs)"
python3 scripts/bench-scale.py "$BIN" --runs "${BENCH_RUNS:-20}"

echo
echo "== 2. check --live --jobs 16 over 1,000 cases, against 1,000 sequential curl processes"
bash scripts/bench-check.sh

echo
echo "== 3. peak memory of large transfers (ceiling 30 MiB each), against curl"
python3 scripts/bench-memory.py "$BIN" 1024

echo
echo "== 4. peak memory of whole bodies: --keypath, --all, --format json (goal under 3x the body); stdin bodies"
python3 scripts/bench-memory-json.py "$BIN" 128 255 300

echo
echo "== 5. check --live with 50 expectations on a 10 MB JSON body, against the same check without them"
bash scripts/bench-expect.sh
