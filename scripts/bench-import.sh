#!/usr/bin/env bash
# Benchmark of `moya-cli import openapi` (issue 14's budget: a 10 MB spec in under 2 s and under
# 200 MiB): a generated OpenAPI document of about 10 MB (scripts/gen-openapi.py), imported RUNS
# times with the release binary; prints the median wall time, the peak memory and the verdict.
# Then `import curl`, `import har` and `import postman` of CAPTURES requests each
# (scripts/gen-captures.py; no budget of their own: the figures, to compare runs).
set -euo pipefail
BIN=${BIN:-.build/release/moya-cli}
RUNS=${RUNS:-5}
OPERATIONS=${OPERATIONS:-4200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/gen-openapi.py "$OPERATIONS" > "$work/spec.json"
size=$(stat -c %s "$work/spec.json")
times=()
peak=0
for _ in $(seq "$RUNS"); do
    rm -rf "$work/out" && mkdir "$work/out"
    line=$(cd "$work/out" && /usr/bin/time -f '%e %M' "$OLDPWD/$BIN" import openapi ../spec.json 2>&1 >/dev/null | tail -1)
    times+=("${line% *}")
    kb=${line#* }
    (( kb > peak )) && peak=$kb
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
cases=$(cd "$work/out" && "$OLDPWD/$BIN" import openapi ../spec.json --force 2>&1 >/dev/null | sed -n "s/.*API 'generated', \([0-9]*\) cases.*/\1/p")
printf '| import openapi, %s operations (%.1f MB spec) | %s s, %d MiB | budget 2 s, 200 MiB | %s |\n' \
    "$OPERATIONS" "$(echo "$size / 1000000" | bc -l)" "$median" $((peak / 1024)) \
    "$(awk -v t="$median" -v m=$((peak / 1024)) 'BEGIN { print (t < 2 && m < 200) ? "met" : "NOT met" }')"
echo "($cases cases written; median of $RUNS runs)"

# The other importers: the median of RUNS runs and the peak memory, each on CAPTURES requests.
CAPTURES=${CAPTURES:-2000}
for kind in curl har postman; do
    python3 scripts/gen-captures.py "$kind" "$CAPTURES" > "$work/input.$kind"
    case $kind in
        curl) arguments=(import curl ../input.curl --api generated --case call) ;;
        har) arguments=(import har ../input.har --api generated) ;;
        postman) arguments=(import postman ../input.postman) ;;
    esac
    times=()
    peak=0
    for _ in $(seq "$RUNS"); do
        rm -rf "$work/out" && mkdir "$work/out"
        line=$(cd "$work/out" && /usr/bin/time -f '%e %M' "$OLDPWD/$BIN" "${arguments[@]}" 2>&1 >/dev/null | tail -1)
        times+=("${line% *}")
        kb=${line#* }
        (( kb > peak )) && peak=$kb
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '| import %s, %s requests (%.1f MB) | %s s, %d MiB |\n' "$kind" "$CAPTURES" \
        "$(echo "$(stat -c %s "$work/input.$kind") / 1000000" | bc -l)" "$median" $((peak / 1024))
done
