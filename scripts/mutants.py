#!/usr/bin/env python3
"""Planted bugs, each of which a named test must catch (`make mutants`).

scripts/mutants.json lists realistic one-line bugs: a file, an exact snippet of it, what the
snippet becomes, the tests that must fail (an XCTest filter, as `swift test --filter` takes it)
and why the change is a bug. Each is planted alone in a scratch copy of the repository (never in
this checkout, so an interrupted run leaves no bug behind here), built incrementally, tested with
its filter and reverted. A mutant is:

  caught       its tests failed (or did not finish in --test-timeout seconds)
  survived     its tests passed: a bug the suite lets through
  stale        its snippet is not in the file, or is there more than once: the code moved;
               update the entry (it does not count as caught)
  no build     the mutant does not compile: not a realistic bug; replace the entry

The rate is caught / all entries; below --threshold percent (90) the script exits 1.

The scratch copy is kept between runs in .build/mutants (or --scratch) with its own .build, so a
run builds only what the mutants touch; each run first brings it back to this checkout's files
(tracked and untracked ones git does not ignore), reverting whatever a killed run left in it.
"""

import argparse
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "scripts", "mutants.json")
LOCK = ".mutants.lock"  # in the scratch copy: one run at a time
FIELDS = ("id", "file", "original", "mutant", "tests", "description")


def load_list(path):
    with open(path, encoding="utf-8") as handle:
        entries = json.load(handle)
    ids = set()
    for index, entry in enumerate(entries):
        missing = [field for field in FIELDS if not entry.get(field)]
        if missing:
            sys.exit(f"mutants: {path}: entry {index + 1} lacks {', '.join(missing)}")
        if entry["id"] in ids:
            sys.exit(f"mutants: {path}: the id {entry['id']} is used twice")
        if os.path.isabs(entry["file"]) or ".." in entry["file"].split("/"):
            sys.exit(f"mutants: {path}: {entry['id']}: the file must be a path inside the repository")
        if entry["original"] == entry["mutant"]:
            sys.exit(f"mutants: {path}: {entry['id']} changes nothing")
        ids.add(entry["id"])
    return entries


def checkout_files():
    """The checkout's files as git sees them: tracked, and untracked ones not ignored."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True).stdout
    names = [name.decode() for name in listed.split(b"\0") if name]
    return sorted(name for name in set(names) if os.path.isfile(os.path.join(ROOT, name)))


def write_if_changed(source, destination):
    """Copies `source` to `destination` unless it holds the same bytes already (its time kept,
    so the build does not redo what did not change)."""
    with open(source, "rb") as handle:
        data = handle.read()
    try:
        with open(destination, "rb") as handle:
            if handle.read() == data:
                return False
    except FileNotFoundError:
        os.makedirs(os.path.dirname(destination), exist_ok=True)
    with open(destination, "wb") as handle:
        handle.write(data)
    shutil.copymode(source, destination)
    return True


def sync_scratch(scratch):
    """Makes `scratch` hold this checkout's files, and nothing else outside .build."""
    names = checkout_files()
    # Package.resolved is ignored by git but pins the dependencies the checkout built with.
    if os.path.isfile(os.path.join(ROOT, "Package.resolved")):
        names.append("Package.resolved")
    wanted = set(names)
    changed = sum(write_if_changed(os.path.join(ROOT, name), os.path.join(scratch, name)) for name in names)
    for folder, subfolders, files in os.walk(scratch):
        relative = os.path.relpath(folder, scratch)
        if relative == ".":
            subfolders[:] = [name for name in subfolders if name != ".build"]
        for name in files:
            path = os.path.normpath(os.path.join(relative, name))
            if path not in wanted and path != LOCK:
                os.remove(os.path.join(folder, name))
                changed += 1
    # The dependencies' sources, so the first build in a new scratch copy needs no network.
    build = os.path.join(ROOT, ".build")
    for name in ("checkouts", "repositories", "artifacts"):
        source, destination = os.path.join(build, name), os.path.join(scratch, ".build", name)
        if os.path.isdir(source) and not os.path.exists(destination):
            shutil.copytree(source, destination, symlinks=True)
    state = os.path.join(build, "workspace-state.json")
    if os.path.isfile(state) and not os.path.exists(os.path.join(scratch, ".build", "workspace-state.json")):
        shutil.copy2(state, os.path.join(scratch, ".build", "workspace-state.json"))
    return changed


def run(command, cwd, timeout):
    """Runs `command`; returns (exit status or None on timeout, output)."""
    environment = dict(os.environ)
    environment.pop("MOYA_CLI_BINARY", None)  # the tests must run the scratch copy's binary
    try:
        done = subprocess.run(
            command, cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            timeout=timeout)
        return done.returncode, done.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as expired:
        return None, (expired.stdout or b"").decode(errors="replace")


def build(scratch, timeout):
    return run(["swift", "build", "--build-tests"], scratch, timeout)


def test(scratch, filters, timeout):
    command = ["swift", "test", "--skip-build", "--disable-swift-testing"]
    for pattern in filters:
        command += ["--filter", pattern]
    return run(command, scratch, timeout)


def listed_tests(scratch):
    status, output = run(["swift", "test", "list", "--skip-build", "--disable-swift-testing"], scratch, 300)
    if status != 0:
        sys.exit("mutants: `swift test list` failed in the scratch copy:\n" + output[-3000:])
    return [line.strip() for line in output.splitlines() if "/" in line and " " not in line.strip()]


def tail(output, lines=25):
    return "\n".join("    " + line for line in output.rstrip().splitlines()[-lines:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", default=LIST, help="the mutant list (default scripts/mutants.json)")
    parser.add_argument("--only", action="append", default=[], help="run only this id (repeatable)")
    parser.add_argument("--threshold", type=float, default=90.0, help="the lowest rate that passes, in percent")
    parser.add_argument("--scratch", help="the scratch copy (default .build/mutants, kept between runs)")
    parser.add_argument("--build-timeout", type=int, default=1800)
    parser.add_argument("--test-timeout", type=int, default=600)
    parser.add_argument("-v", "--verbose", action="store_true", help="show the tests' output for each mutant")
    options = parser.parse_args()

    entries = load_list(options.list)
    if options.only:
        unknown = set(options.only) - {entry["id"] for entry in entries}
        if unknown:
            sys.exit("mutants: no such id: " + ", ".join(sorted(unknown)))
        entries = [entry for entry in entries if entry["id"] in options.only]
    if shutil.which("swift") is None and os.path.isfile("/opt/swift/usr/bin/swift"):
        os.environ["PATH"] = "/opt/swift/usr/bin:" + os.environ["PATH"]

    scratch = os.path.abspath(options.scratch or os.path.join(ROOT, ".build", "mutants"))
    os.makedirs(scratch, exist_ok=True)
    lock = open(os.path.join(scratch, LOCK), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.exit(f"mutants: another run is using {scratch}")

    started = time.monotonic()
    changed = sync_scratch(scratch)
    print(f"mutants: scratch copy {scratch} ({changed} files brought up to date); building", flush=True)
    status, output = build(scratch, options.build_timeout)
    if status != 0:
        sys.exit("mutants: the checkout does not build in the scratch copy:\n" + tail(output))
    baseline_build = time.monotonic() - started

    # Each filter must name tests, and they must pass before anything is planted.
    names = listed_tests(scratch)
    for entry in entries:
        matched = [name for name in names if re.search(entry["tests"], name)]
        if not matched:
            sys.exit(f"mutants: {entry['id']}: the filter {entry['tests']!r} matches no test")
        entry["matched"] = len(matched)
    filters = sorted({entry["tests"] for entry in entries})
    status, output = test(scratch, filters, options.test_timeout * 2)
    if status != 0:
        sys.exit("mutants: the tests fail with no bug planted; fix them first:\n" + tail(output, 40))
    baseline = time.monotonic() - started
    print(f"mutants: unmutated build {baseline_build:.0f} s, its tests pass ({baseline:.0f} s in all); "
          f"{len(entries)} mutants", flush=True)

    results = []
    for number, entry in enumerate(entries, 1):
        path = os.path.join(scratch, entry["file"])
        mutant_started = time.monotonic()
        try:
            with open(path, encoding="utf-8") as handle:
                original = handle.read()
        except FileNotFoundError:
            original = None
        count = original.count(entry["original"]) if original is not None else 0
        if count != 1:
            outcome, detail = "stale", ("the file is gone" if original is None
                                        else "the snippet is not in the file" if count == 0
                                        else f"the snippet is in the file {count} times")
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(original.replace(entry["original"], entry["mutant"]))
            try:
                status, output = build(scratch, options.build_timeout)
                if status != 0:
                    outcome, detail = "no build", tail(output, 12)
                else:
                    status, output = test(scratch, [entry["tests"]], options.test_timeout)
                    if status is None:
                        outcome, detail = "caught", f"the tests did not finish in {options.test_timeout} s"
                    elif status != 0:
                        failed = sorted(set(re.findall(r"Test Case '(?:-\[)?([^' \]]+)[^']*' failed", output)))
                        outcome, detail = "caught", "failed: " + (", ".join(failed) or f"exit status {status}")
                    else:
                        outcome, detail = "survived", f"{entry['matched']} tests passed with the bug planted"
                    if options.verbose:
                        detail += "\n" + tail(output, 40)
            finally:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(original)
        seconds = time.monotonic() - mutant_started
        results.append((entry, outcome, seconds))
        print(f"[{number}/{len(entries)}] {outcome:8} {seconds:5.0f} s  {entry['id']}: {entry['description']}", flush=True)
        if outcome != "caught" or options.verbose:
            print(f"    {entry['file']}  (--filter {entry['tests']})\n    {detail}", flush=True)

    caught = sum(1 for _, outcome, _ in results if outcome == "caught")
    rate = 100.0 * caught / len(results) if results else 100.0
    mutant_seconds = [seconds for _, outcome, seconds in results if outcome not in ("stale",)]
    average = sum(mutant_seconds) / len(mutant_seconds) if mutant_seconds else 0
    total = time.monotonic() - started
    print(f"\nmutants: {caught} of {len(results)} caught ({rate:.0f}%); "
          + ", ".join(f"{sum(1 for _, o, _ in results if o == kind)} {kind}"
                      for kind in ("survived", "stale", "no build"))
          + f"; {total:.0f} s in all, {average:.0f} s a mutant")
    for entry, outcome, _ in results:
        if outcome != "caught":
            print(f"  {outcome}: {entry['id']} ({entry['file']})")
    if rate < options.threshold:
        print(f"mutants: below {options.threshold:.0f}%: add or fix the tests that should catch them")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
