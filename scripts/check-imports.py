#!/usr/bin/env python3
"""Fails when a target imports a module that its entry in Package.swift does not name.

Usage: check-imports.py [swift]   (from the repository root; `make imports-check` runs it)

Why: SwiftPM lets a target import its dependencies' dependencies, so an undeclared import builds
and the layers of Package.swift hold by a comment only. `make test` builds with SwiftPM's own
check (`--explicit-target-dependency-import-check error`), which catches a Swift target of the
package imported undeclared; this script also catches the C modules (CCleanup, CYAML, CCurl) and
the other packages' products (HTTPTypes, ArgumentParser, NIO), and needs no build. A product's
module is taken to have the product's name, as every product this package uses does.
"""
import json, os, re, subprocess, sys

# Modules of the toolchain and the system: imported without being declared.
SYSTEM = {
    "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "Dispatch",
    "Synchronization", "Glibc", "Musl", "Darwin", "WinSDK", "XCTest", "Testing",
}
IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_]\w*)",
    re.M)


def module_name(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def main():
    swift = sys.argv[1] if len(sys.argv) > 1 else "swift"
    package = json.loads(subprocess.run(
        [swift, "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
    problems = []
    for target in package["targets"]:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        name = target["name"]
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
        if not os.path.isdir(folder):
            problems.append(f"{folder}: error: no folder for target {name}; its imports cannot be checked")
            continue
        excluded = {os.path.normpath(os.path.join(folder, path)) for path in target.get("exclude", [])}
        declared = {module_name(name)}
        for dependency in target["dependencies"]:
            (kind, value), = dependency.items()
            declared.add(module_name(value[0]))
        for root, _, files in os.walk(folder):
            for file in sorted(files):
                path = os.path.normpath(os.path.join(root, file))
                if not file.endswith(".swift") or path in excluded or os.path.dirname(path) in excluded:
                    continue
                with open(path, encoding="utf-8") as source:
                    # Multi-line string literals (a Python script a test runs, say) blanked, lines kept.
                    text = re.sub(r'"""(?:.|\n)*?"""', lambda m: "\n" * m.group(0).count("\n"), source.read())
                for match in IMPORT.finditer(text):
                    imported = match.group(1)
                    if imported not in SYSTEM and imported not in declared:
                        line = text.count("\n", 0, match.start()) + 1
                        problems.append(f"{path}:{line}: error: {name} imports {imported}, which its "
                                        f"dependencies in Package.swift do not name")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"imports-check: every import of the {len(package['targets'])} targets is declared in Package.swift")


main()
