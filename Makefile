# moya-cli — build, test, demo and install.
#
#   make demo      build, then run moya-cli offline against the stubbed example targets
#   make test      build and run the test suite
#   make imports-check   every module a target imports is declared in Package.swift
#   make install   PREFIX=/usr/local (DESTDIR honoured)
#   make fuzz      FUZZ_SECONDS=60 per fuzz target (libFuzzer; see scripts/fuzz.sh)
#   make mutants   plant each bug of scripts/mutants.json in a scratch copy; fails under 90% caught
#   make options   after changing an option in Sources/OptionSpecs/Declarations: rewrite the generated code
#
# Everything runs from the repository root, where ./targets holds the example target files.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

# The Swift toolchain: use `swift` from PATH, else the one installed under /opt/swift.
ifeq ($(shell command -v swift 2>/dev/null),)
  ifneq ($(wildcard /opt/swift/usr/bin/swift),)
    export PATH := /opt/swift/usr/bin:$(PATH)
  endif
endif
SWIFT ?= swift

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
SHAREDIR := $(DESTDIR)$(PREFIX)/share
MAN1DIR := $(SHAREDIR)/man/man1
MAN5DIR := $(SHAREDIR)/man/man5
TARGETSDIR := $(SHAREDIR)/moya-cli/targets
BASHCOMPDIR := $(SHAREDIR)/bash-completion/completions
ZSHCOMPDIR := $(SHAREDIR)/zsh/site-functions
FISHCOMPDIR := $(SHAREDIR)/fish/vendor_completions.d

BIN ?= .build/release/moya-cli
# The helper `moya-cli import swift` runs, built and installed beside moya-cli: it alone links
# swift-syntax, so that moya-cli's start-up does not pay for it.
IMPORT_SWIFT_BIN ?= $(dir $(BIN))moya-cli-import-swift
# The example target files install ships (README's "A short tour") and the samples they read:
# named, not globbed, so that files a user adds to ./targets (imports, saved cases, recorded
# samples) are never installed with them.
SHIPPED_TARGETS := github httpbin httpbin-token httpbin-oauth
SHIPPED_SAMPLES := github-tarball.tar.gz httpbin-bytes.bin httpbin-note.txt httpbin-pixel.png httpbin-slideshow.json
# The Swift standard library linked in: the installed binary runs without the toolchain and
# starts faster (fewer shared objects to relocate).
# Linked as a position-dependent executable: a PIE has some 42,000 relocations applied at every
# start, whose page faults cost each call about 1 ms (a tenth of curl's own start-up here). The
# libraries, stack and heap are still placed at random. PIE=1 builds a PIE instead, as a
# distribution's hardening policy may require.
ifeq ($(PIE),1)
LINK_FLAGS :=
else
LINK_FLAGS := -Xlinker -no-pie
endif
# The C++ runtime the Swift runtime uses, linked in too: loading libstdc++.so and libgcc_s.so and
# applying their relocations was a third of a static Swift binary's start-up here (a `print`
# program: 1.73 ms, 1.13 ms with both linked in; C's: 0.64 ms). Swift's static-stdlib link line
# asks for `-lstdc++`, so a linker script named libstdc++.so, found first, hands the linker the
# archive instead; without the archive (no libstdc++-dev) the shared library is used as before.
STATIC_CXX_DIR := $(CURDIR)/.build/static-cxx
STATIC_CXX_ARCHIVE := $(shell clang -print-file-name=libstdc++.a 2>/dev/null)
ifneq ($(wildcard $(STATIC_CXX_ARCHIVE)),)
STATIC_CXX_FLAGS := -Xswiftc -L$(STATIC_CXX_DIR) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
else
STATIC_CXX_FLAGS :=
endif
# Generic types are instantiated through their metadata accessors, which pass the conformances
# their parameters need, instead of from their mangled names: the runtime checks a mangled name's
# requirements by scanning every protocol-conformance record of the binary (4,238 here, some
# 250,000 instructions a type), which was a third of a stubbed call's instructions.
METADATA_FLAGS := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# Not used (issue 42, measured): fewer conformance records to scan. SwiftPM's release link already
# passes --gc-sections, which keeps every record (they are retained sections); the frontend's
# -conditional-runtime-records lets the linker drop a record only under full LTO (a toy program: 5
# records, 3 with -lto=llvm-full and lld, 5 without LTO), and the records of the prebuilt static
# Foundation and standard library (some 2,500 of the binary's 5,493) would stay; -enable-llvm-vfe
# with -enable-llvm-wme crashes Swift 6.3.1's compiler. The lookups were taken off the paths instead.
# No dynamic symbol table of the binary's own functions: Swift's static-stdlib link line exports
# all of them (some 5,800), which nothing loaded at run time binds to, and the runtime's start-up
# looks up its own path with dladdr(3), which walks that table (a tenth of a stubbed call).
EXPORT_FLAGS := -Xlinker --no-export-dynamic
# The functions everyday commands run, placed together in the binary's code, each in a section
# of its own so the linker can move it (scripts/gen-text-order.py lists them): a page fault on the
# binary maps the 64 KiB around it, so scattered over 25 MB of code the same functions cost each
# command megabytes more memory.
TEXT_ORDER := $(CURDIR)/scripts/text-order.txt
ifneq ($(wildcard $(TEXT_ORDER)),)
ORDER_FLAGS := -Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker --section-ordering-file=$(TEXT_ORDER)
else
ORDER_FLAGS :=
endif
# No $ORIGIN run path: the binary needs only system libraries (libyaml, libm, libc), found through
# ld.so's cache, and SwiftPM's default run path made the loader look for each of them in some
# twenty glibc-hwcaps and tls folders beside the binary first (failed openat and stat calls at
# every start; a stubbed call 0.19 ms faster without, issue 42).
RPATH_FLAGS := --disable-local-rpath
RELEASE_FLAGS ?= -c release --static-swift-stdlib $(LINK_FLAGS) $(STATIC_CXX_FLAGS) $(METADATA_FLAGS) $(EXPORT_FLAGS) $(ORDER_FLAGS) $(RPATH_FLAGS)
INSTALL ?= install
# SwiftPM's own check that a target imports no target of the package it does not depend on (as
# swift-nio's CI builds). It does not see a dependency's dependency imported undeclared (SwiftPM
# 6.3 compares with all a target's dependencies, transitively); `make imports-check` does.
IMPORT_CHECK := --explicit-target-dependency-import-check error

# System libraries: libcurl (loaded at run time, headers at build time) and libyaml.
APT_PACKAGES := libcurl4-openssl-dev libyaml-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build build-cli test imports-check man-check format lint options demo install uninstall bench budgets text-order fuzz mutants generated-swift clean

## deps: install libcurl and libyaml development files if pkg-config cannot find them
deps:
	@if pkg-config --exists libcurl yaml-0.1 2>/dev/null; then \
	    echo "deps: libcurl and libyaml found"; \
	else \
	    echo "deps: installing $(APT_PACKAGES)"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $(APT_PACKAGES); \
	fi

## build: the release binaries, .build/release/moya-cli and the helper `import swift` runs
## (moya-cli-import-swift, which alone links swift-syntax)
build: build-cli
	$(SWIFT) build $(RELEASE_FLAGS) $(IMPORT_CHECK) --product moya-cli-import-swift

## build-cli: the release moya-cli alone (what demo runs; not swift-syntax's release build)
build-cli: deps
	@if [ -n "$(STATIC_CXX_FLAGS)" ]; then mkdir -p "$(STATIC_CXX_DIR)" \
	    && echo "INPUT($(STATIC_CXX_ARCHIVE))" > "$(STATIC_CXX_DIR)/libstdc++.so"; fi
	$(SWIFT) build $(RELEASE_FLAGS) $(IMPORT_CHECK) --product moya-cli

## test: build the tests, then run them (serially: deterministic output, also under CI=true).
## The HTTP/2 tests need nginx (Debian's nginx-light, else nginx) and the completion tests zsh
## and fish, the browser tests chromium-headless-shell; they skip without them, so what is missing is installed first. (/usr/sbin is often
## not on a user's PATH, hence both nginx checks.)
test: deps
	@missing=""; for shell in zsh fish; do \
	    command -v $$shell >/dev/null 2>&1 || missing="$$missing $$shell"; done; \
	if [ -z "$$missing" ]; then \
	    echo "test: zsh and fish found"; \
	else \
	    echo "test: installing$$missing for the shell completion tests"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi
	@if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then \
	    echo "test: nginx found"; \
	else \
	    echo "test: installing nginx-light for the HTTP/2 tests"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light \
	        || $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y nginx; \
	fi
	@if command -v openssl >/dev/null 2>&1; then \
	    echo "test: openssl found"; \
	else \
	    echo "test: installing openssl for the TLS and public-key pin tests"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y openssl; \
	fi
	@if command -v chromium-headless-shell >/dev/null 2>&1; then \
	    echo "test: chromium-headless-shell found"; \
	else \
	    echo "test: installing chromium-headless-shell for the browser tests (HTML report, the mock's CORS)"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium-headless-shell \
	        || echo "test: chromium-headless-shell could not be installed; the browser tests will skip"; \
	fi
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory imports-check
	@$(MAKE) --no-print-directory man-check
	$(SWIFT) build --build-tests $(IMPORT_CHECK)
	$(SWIFT) test --skip-build --disable-swift-testing

## man-check: every page in man/ renders with no troff warning (groff -ww: an unknown escape, a
## line that starts with a dot and is no macro, a raw non-ASCII byte); groff-base is installed
## when missing. `make test` runs it.
man-check:
	@command -v groff >/dev/null 2>&1 || { \
	    echo "man-check: installing groff-base"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y groff-base; }
	@status=0; for page in man/*.[0-9]; do \
	    warnings=$$(groff -ww -man -Tutf8 -z "$$page" 2>&1); \
	    if [ -n "$$warnings" ]; then echo "$$warnings"; status=1; fi; \
	done; \
	if [ $$status -eq 0 ]; then echo "man-check: every page renders without a warning"; fi; \
	exit $$status

## imports-check: every module each target's sources import (tests, fuzz harnesses and test servers
## too) is named in its dependencies in Package.swift, not merely reachable through one
## (scripts/check-imports.py; no build needed). `make test` runs it.
imports-check:
	python3 scripts/check-imports.py $(SWIFT)
## options: write every command's option code (the `+Generated.swift` files: plain values, the tables
## DirectParser reads, the ArgumentParser declarations, the tests' sample values) from the declarations
## in Sources/OptionSpecs/Declarations; OptionSpecsTests fails while a written file is stale
options:
	$(SWIFT) run generate-options

## lint: the sources as swift-format (the toolchain's) lays them out, per .swift-format; `make format` applies it
FORMATTED := Package.swift Sources Tests Fuzz/Sources
lint:
	@if command -v swift-format >/dev/null 2>&1 || [ -x "$$(dirname "$$(command -v $(SWIFT))")/swift-format" ]; then \
	    $(SWIFT) format lint --strict --recursive --parallel $(FORMATTED) && echo "lint: formatted as .swift-format says"; \
	else \
	    echo "lint: skipped, this toolchain has no swift-format"; \
	fi

format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

## demo: the main job, offline: list the example APIs, call cases from their sample data
demo: build-cli
	@echo '$$ moya-cli list'
	@$(BIN) list
	@echo
	@echo '$$ moya-cli list github'
	@$(BIN) list github
	@echo
	@echo '$$ moya-cli call github zen --stub'
	@$(BIN) call github zen --stub
	@echo
	@echo '$$ moya-cli call github userProfile ashfurrow --stub --delay 0.2'
	@$(BIN) call github userProfile ashfurrow --stub --delay 0.2
	@echo
	@echo '$$ moya-cli validate'
	@$(BIN) validate
	@echo
	@echo '$$ moya-cli check github'
	@$(BIN) check github
	@echo
	@echo "The binary is $(CURDIR)/$(BIN)."
	@if found=$$(command -v moya-cli); then echo "moya-cli on PATH is $$found; to install this build for yourself:"; \
	else echo "It is not on PATH. To install it for yourself (binary, man pages, completions; ~/.local/bin must be on PATH):"; fi
	@echo "    make install PREFIX=~/.local"

## install: binary, man pages, the shipped example targets and shell completions under $(DESTDIR)$(PREFIX)
install: build
	$(INSTALL) -d "$(BINDIR)" "$(MAN1DIR)" "$(MAN5DIR)" "$(TARGETSDIR)/samples" \
	    "$(BASHCOMPDIR)" "$(ZSHCOMPDIR)" "$(FISHCOMPDIR)"
	$(INSTALL) -m 0755 "$(BIN)" "$(BINDIR)/moya-cli"
	$(INSTALL) -m 0755 "$(IMPORT_SWIFT_BIN)" "$(BINDIR)/moya-cli-import-swift"
	for page in $(wildcard man/*.1); do $(INSTALL) -m 0644 "$$page" "$(MAN1DIR)/"; done
	for page in $(wildcard man/*.5); do $(INSTALL) -m 0644 "$$page" "$(MAN5DIR)/"; done
	for name in $(SHIPPED_TARGETS); do \
	    $(INSTALL) -m 0644 "targets/$$name.yaml" "$(TARGETSDIR)/"; done
	for file in $(SHIPPED_SAMPLES); do \
	    $(INSTALL) -m 0644 "targets/samples/$$file" "$(TARGETSDIR)/samples/"; done
	"$(BIN)" --generate-completion-script bash > "$(BASHCOMPDIR)/moya-cli"
	"$(BIN)" --generate-completion-script zsh > "$(ZSHCOMPDIR)/_moya-cli"
	"$(BIN)" --generate-completion-script fish > "$(FISHCOMPDIR)/moya-cli.fish"

## uninstall: remove what install put in place
uninstall:
	rm -f "$(BINDIR)/moya-cli" "$(BINDIR)/moya-cli-import-swift"
	rm -f $(foreach page,$(notdir $(wildcard man/*.1)),"$(MAN1DIR)/$(page)")
	rm -f $(foreach page,$(notdir $(wildcard man/*.5)),"$(MAN5DIR)/$(page)")
	rm -f $(foreach name,$(SHIPPED_TARGETS),"$(TARGETSDIR)/$(name).yaml")
	rm -f $(foreach file,$(SHIPPED_SAMPLES),"$(TARGETSDIR)/samples/$(file)")
	-rmdir "$(TARGETSDIR)/samples" "$(TARGETSDIR)" "$(SHAREDIR)/moya-cli" 2>/dev/null
	rm -f "$(BASHCOMPDIR)/moya-cli" "$(ZSHCOMPDIR)/_moya-cli" "$(FISHCOMPDIR)/moya-cli.fish"

## bench: the budgets of DESIGN.md, measured side by side (scripts/bench.sh), and `serve` against
## nginx on the same JSON (scripts/bench-serve.sh; wrk when installed)
bench: budgets
	@if [ -f scripts/bench.sh ]; then $(MAKE) --no-print-directory build && bash scripts/bench.sh && bash scripts/bench-import.sh && bash scripts/bench-serve.sh; \
	else echo "bench: scripts/bench.sh is not there yet"; fi

## budgets: the release binary's instructions (valgrind) for --version, a stubbed call, a live call to
## nginx on loopback, validate (busiest thread) and list of 10,000 cases and an OpenAPI import, against
## bench/budgets.json, and whether scripts/text-order.txt still names the binary's functions
## (Tests/MoyaCLITests/InstructionBudgetTests); only moya-cli is built for it (build-cli), not the
## import-swift helper and swift-syntax's release build. CI runs it after the tests (.ci/run); the counting
## itself takes about two minutes, the release build before it 15-25 from cold on two cores.
budgets: build-cli
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
	    && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
	MOYA_CLI_RELEASE_BINARY=$(CURDIR)/$(BIN) $(SWIFT) test --disable-swift-testing --filter InstructionBudgetTests

## text-order: regenerate scripts/text-order.txt from the release binary (callgrind over everyday
## commands, scripts/gen-text-order.py), then link the binary again with it. `make budgets` fails
## when the file names functions the binary no longer has (after a rename or a move of modules).
text-order: build-cli
	@command -v valgrind >/dev/null 2>&1 || $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind
	python3 scripts/gen-text-order.py "$(BIN)"
	rm -f "$(BIN)"
	$(MAKE) --no-print-directory build-cli

## fuzz: libFuzzer over the YAML loader and validator, the argument binder and the JSON reader,
## FUZZ_SECONDS (default 60) each; corpora and crashes in Fuzz/work (scripts/fuzz.sh). Not in CI.
fuzz: deps
	bash scripts/fuzz.sh

## mutants: each planted bug of scripts/mutants.json (file, snippet, replacement, the tests that must
## catch it) applied alone to a scratch copy in .build/mutants (this checkout is never changed),
## built incrementally, tested, reverted; caught/survived/stale and the rate. Fails under
## MUTANTS_THRESHOLD percent caught. MUTANTS_ARGS="--only ID -v" runs one and shows its tests.
MUTANTS_THRESHOLD ?= 90
MUTANTS_ARGS ?=
mutants: deps
	python3 scripts/mutants.py --threshold $(MUTANTS_THRESHOLD) $(MUTANTS_ARGS)

## generated-swift: write again the enums `moya-cli generate swift` makes of the shipped targets and the
## test fixtures, committed in Tests/GeneratedSwiftTests/Generated (GeneratedSourcesTests fails when they
## differ from what the binary writes; the Moya flavour, internal, goes to Tests/GeneratedMoyaTests/Generated).
GENERATED_SWIFT := targets:github:Github targets:httpbin:Httpbin targets:httpbin-token:HttpbinToken \
	targets:httpbin-oauth:HttpbinOauth Tests/Fixtures/generate:hostile-names:HostileNames \
	Tests/Fixtures/generate:keyed:Keyed Tests/Fixtures/generate:self:SelfAPI \
	Tests/Fixtures/generate:keywords:Keywords
generated-swift:
	$(SWIFT) build --product moya-cli
	@for entry in $(GENERATED_SWIFT); do \
	    folder=$${entry%%:*}; rest=$${entry#*:}; api=$${rest%%:*}; name=$${rest#*:}; \
	    .build/debug/moya-cli generate swift $$api --targets $$folder --module MoyaKit --examples --force \
	        -o Tests/GeneratedSwiftTests/Generated/$$name.swift || exit 1; \
	    .build/debug/moya-cli generate swift $$api --targets $$folder --module Moya --access internal --force \
	        -o Tests/GeneratedMoyaTests/Generated/$$name.swift || exit 1; \
	done

## clean: remove build products (the fuzz harnesses' too) and benchmark output
clean:
	rm -rf .build Fuzz/.build bench-out
