#!/usr/bin/env python3
"""Times commands run in turn (A, B, A, B, ...) and prints each one's median and its ratio to the first.

hyperfine runs all of one command, then all of the next; on a shared or virtual machine whose speed
drifts over seconds, that drift lands in the ratio. Alternating puts it on both sides.
Usage: interleaved.py RUNS 'command one' 'command two' ...
"""
import os, shlex, statistics, sys, time

runs = int(sys.argv[1])
commands = [shlex.split(c) for c in sys.argv[2:]]
devnull = os.open(os.devnull, os.O_WRONLY)
times = [[] for _ in commands]
for round in range(runs + 5):
    for index, argv in enumerate(commands):
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, status = os.waitpid(pid, 0)
        elapsed = (time.perf_counter() - start) * 1000
        if status != 0:
            sys.exit(f"interleaved.py: '{' '.join(argv)}' failed (wait status {status})")
        if round >= 5:  # the first rounds warm the caches
            times[index].append(elapsed)
base = statistics.median(times[0])
for index, argv in enumerate(commands):
    median = statistics.median(times[index])
    print(f"  median {median:7.2f} ms  ratio {median / base:5.2f}x  {' '.join(argv)}")
