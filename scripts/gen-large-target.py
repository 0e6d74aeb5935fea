#!/usr/bin/env python3
"""Writes a large, plausible target file (the FORMAT.md shape) for load benchmarks.

Usage: scripts/gen-large-target.py [N] > big.yaml   (N cases, default 10000; ~6 lines per case)
"""
import sys

TEMPLATES = [
    # A plain GET with one value and a JSON sample.
    """  item{i}:
    description: "Fetch item {i}"
    values: [{{id: int}}]
    path: /items/{{id}}
    sample: {{json: {{id: {i}, name: "Item {i}", tags: [a, b]}}}}
""",
    # Parameters with URL encoding and an optional value.
    """  search{i}:
    values: [{{query: string}}, {{page: {{type: int, default: 1}}}}]
    path: /search/{i}
    task: {{parameters: {{q: "{{query}}", page: "{{page}}"}}, encoding: url}}
    sample: {{text: "results {i}", status: 200}}
""",
    # A JSON body with headers and named samples.
    """  create{i}:
    method: POST
    path: /things
    headers: {{X-Request: "r{i}"}}
    task: {{json: {{name: thing{i}, size: {i}}}}}
    samples:
      ok: {{status: 201, json: {{id: {i}}}}}
      bad: {{status: 400, text: nope}}
""",
]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    out = sys.stdout
    out.write("api: large\n")
    out.write("description: A generated API for load benchmarks\n")
    out.write("baseURL: https://api.example.com\n")
    out.write("headers:\n  Accept: application/json\n")
    out.write("validation: successCodes\n")
    out.write("cases:\n")
    for i in range(count):
        out.write(TEMPLATES[i % len(TEMPLATES)].format(i=i))


if __name__ == "__main__":
    main()
