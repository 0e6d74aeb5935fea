#!/usr/bin/env bash
# Runs the libFuzzer harnesses of Fuzz/ one after the other (`make fuzz`); not part of CI.
#
#   FUZZ_SECONDS=60            seconds per fuzz target
#   FUZZ_TARGETS="FuzzYAML FuzzArguments FuzzJSON"   which ones, in order
#   FUZZ_JOBS=1                libFuzzer processes per target (-fork); keep 1 on a small machine
#
# The harnesses (Fuzz/Sources) are executable targets of the main package; this builds them and
# every module they use with -sanitize=fuzzer,address into Fuzz/.build, so the main debug and
# release builds are untouched. (Built without the fuzzer, as `swift build` does, each harness runs
# its fuzz function once on each file it is given: Fuzz/.build/... replays under a debugger.)
# The corpora grow in Fuzz/work/corpus/<target> (seeded from targets/ on the first run and kept
# between runs); a crashing input is saved as Fuzz/work/artifacts/<target>/crash-<sha1> and makes
# the script exit 1. Replay one with: Fuzz/.build/release/<target> Fuzz/work/artifacts/<target>/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
TARGETS="${FUZZ_TARGETS:-FuzzYAML FuzzArguments FuzzJSON}"
JOBS="${FUZZ_JOBS:-1}"
WORK=Fuzz/work

# lld: gold cannot link libFuzzer's instrumented objects (an internal error in its DWARF reader).
for target in $TARGETS; do
    swift build -c release --build-path Fuzz/.build --product "$target" \
        -Xswiftc -sanitize=fuzzer,address -Xcc -DMOYA_FUZZING -Xswiftc -use-ld=lld
done

rm -rf "$WORK/seeds"
python3 scripts/fuzz-seeds.py targets "$WORK"

seeds_for() { case "$1" in FuzzYAML) echo yaml ;; FuzzArguments) echo arguments ;; FuzzJSON) echo json ;; esac; }
dictionary_for() { case "$1" in FuzzJSON) echo Fuzz/json.dict ;; *) echo Fuzz/yaml.dict ;; esac; }

summary=()
failed=0
for target in $TARGETS; do
    corpus="$WORK/corpus/$target"
    artifacts="$WORK/artifacts/$target"
    log="$WORK/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$WORK/logs"
    crashes_before=$(find "$artifacts" -type f | wc -l)
    echo "== $target: ${SECONDS_PER_TARGET}s (log: $log)"
    fork=()
    if [ "$JOBS" -gt 1 ]; then fork=(-fork="$JOBS" -ignore_crashes=1); fi
    # -rss_limit_mb and -timeout make memory and time blow-ups findings too. Leak checks are
    # off: Swift keeps enum cases' tags in a pointer's spare bits, so LeakSanitizer takes what
    # such a pointer holds for leaked.
    status=0
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "Fuzz/.build/release/$target" "$corpus" "$WORK/seeds/$(seeds_for "$target")" \
        -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 -detect_leaks=0 \
        -rss_limit_mb=2048 -timeout=10 -max_len=65536 -dict="$(dictionary_for "$target")" \
        -artifact_prefix="$artifacts/" "${fork[@]}" >"$log" 2>&1 || status=$?
    executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    elapsed=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -1 || true)
    crashes=$(( $(find "$artifacts" -type f | wc -l) - crashes_before ))
    corpus_size=$(find "$corpus" -type f | wc -l)
    line="$target: ${executions:-?} executions, ${rate:-?} exec/s, ${elapsed:-?}s, corpus $corpus_size, new crashes $crashes"
    if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
        failed=1
        line="$line (exit $status; see $log)"
        grep -m1 -E '^==[0-9]+==ERROR|Fatal error|fatal error|deadly signal|ERROR: libFuzzer' "$log" || true
    fi
    echo "$line"
    summary+=("$line")
done
echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
exit "$failed"
