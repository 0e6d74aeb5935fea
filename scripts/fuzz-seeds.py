#!/usr/bin/env python3
"""Seeds the fuzz corpora from the example target files (scripts/fuzz.sh runs it).

    fuzz-seeds.py TARGETS_FOLDER WORK_FOLDER

Writes WORK_FOLDER/seeds/{yaml,arguments,json}/: each target file as it is; for each case, the
FuzzArguments input that calls it with its examples (a mode byte, then NUL-separated words, see
Fuzz/Sources/FuzzArguments); the JSON sample bodies and sample files. Without PyYAML, only the
files themselves and one argument seed per case index are written.
"""
import json
import os
import sys

targets, work = sys.argv[1], sys.argv[2]
files = ["github.yaml", "httpbin.yaml", "httpbin-token.yaml"]  # FuzzArguments' order
seeds = {kind: os.path.join(work, "seeds", kind) for kind in ("yaml", "arguments", "json")}
for folder in seeds.values():
    os.makedirs(folder, exist_ok=True)


def write(kind, name, data):
    with open(os.path.join(seeds[kind], name), "wb") as out:
        out.write(data if isinstance(data, bytes) else data.encode())


for name in sorted(os.listdir(targets)):
    if name.endswith((".yaml", ".yml")):
        with open(os.path.join(targets, name), "rb") as source:
            write("yaml", name, source.read())
samples = os.path.join(targets, "samples")
for name in sorted(os.listdir(samples)) if os.path.isdir(samples) else []:
    if name.endswith(".json"):
        with open(os.path.join(samples, name), "rb") as source:
            write("json", name, source.read())

try:
    import yaml
except ImportError:
    for index in range(64):
        write("arguments", f"case-{index}", bytes([0, index]))
    sys.exit(0)


def words(example):
    if isinstance(example, list):
        return [str(item) for item in example]
    return [f"--{key}={value}" for key, value in (example or {}).items()]


def bodies(node):
    """Every value of a `json:` key, anywhere in the tree."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "json":
                yield value
            yield from bodies(value)
    elif isinstance(node, list):
        for item in node:
            yield from bodies(item)


index = 0
for name in files:
    path = os.path.join(targets, name)
    with open(path, "rb") as source:
        text = source.read()
    document = yaml.safe_load(text)
    for case, spec in (document.get("cases") or {}).items():
        examples = spec.get("examples") or [[]]
        for number, example in enumerate(examples):
            arguments = [word.encode() for word in words(example)]
            write("arguments", f"{name}-{case}-{number}", bytes([0, index]) + b"\0".join(arguments))
            write("arguments", f"{name}-{case}-{number}-inline", b"\x01" + b"\0".join([text, case.encode()] + arguments))
        index += 1
    for number, body in enumerate(bodies(document)):
        write("json", f"{name}-{number}.json", json.dumps(body, indent=2, default=str))
