#!/usr/bin/env python3
"""Instruction counts (valgrind --tool=callgrind) of loading 10,000 cases, against libyaml's bare
parse: repeatable where wall-clock figures on a shared machine are not.

Usage: bench-instructions.py BIN [BIN ...]   (e.g. the binary of main and of a branch, side by side)

For each binary: the instructions of `validate`, `list API` and offline `check` of the file made by
scripts/gen-large-target.py 10000, in total and on the busiest thread (loading runs on two: libyaml
on one, building and validating on the other, so the busiest thread bounds the time on two cores).
The binary is copied without its debug sections first: valgrind 3.19 cannot read the compressed
ones of the static release build. Not a test: `make bench` does not run it (it takes minutes).
"""
import glob, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp(prefix="moya-bench-instructions-")


def instructions(argv):
    """(total, busiest thread) instructions of one run of argv under callgrind."""
    out = os.path.join(work, "cg.out")
    for old in glob.glob(out + "*"):
        os.remove(old)
    subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}"] + argv,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    per_thread = []
    for path in glob.glob(out + "*"):
        with open(path) as f:
            for line in f:
                match = re.match(r"^(?:summary|totals): (\d+)", line)
                if match:
                    per_thread.append(int(match.group(1)))
                    break
    return sum(per_thread), max(per_thread) if per_thread else 0


try:
    large = os.path.join(work, "large.yaml")
    with open(large, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen-large-target.py"), "10000"], stdout=f, check=True)
    baseline = os.path.join(work, "yaml-parse-baseline")
    subprocess.run(["cc", "-O2", "-o", baseline, os.path.join(HERE, "yaml-parse-baseline.c"), "-lyaml"], check=True)
    reference, _ = instructions([baseline, large, "1"])
    print(f"libyaml bare parse of 10,000 cases: {reference / 1e6:,.0f} M instructions")
    print(f"{'binary':28s} {'command':10s} {'total':>12s} {'busiest thread':>16s} {'total/libyaml':>14s} {'busiest/libyaml':>16s}")
    for index, binary in enumerate(sys.argv[1:]):
        copy = os.path.join(work, f"bin{index}")
        subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
        for name, arguments in (("validate", ["validate", large]), ("list", ["list", "large", "--targets", large]),
                                ("check", ["check", "large", "--targets", large])):
            total, busiest = instructions([copy] + arguments)
            print(f"{binary[-28:]:28s} {name:10s} {total / 1e6:10,.0f} M {busiest / 1e6:14,.0f} M "
                  f"{total / reference:13.2f}x {busiest / reference:15.2f}x", flush=True)
finally:
    shutil.rmtree(work, ignore_errors=True)
