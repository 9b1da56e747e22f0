# robotci — the commands a newcomer needs. `make demo` and `make test` install
# what is missing (apt) first, so they work on a fresh Debian machine.
SHELL := /bin/bash
# What a run needs: the libraries robotci builds against, Chromium's headless shell (RobotKit
# drives it over DevTools; no chromedriver), and WebKit's wpewebkit-driver and cog
# (`--browsers webkit`, docs/browsers.md). What the tests add: redis-server (the queue), the
# full chromium and chromium-driver (the report's WebDriver click tests, RobotKit's WebDriver
# engine, the grid `--browsers webdriver=URL` is tested against), stunnel4/openssl (TLS to
# Redis), nodejs (the page scripts' syntax).
APT_RUN_PACKAGES := libxml2-dev libcurl4-openssl-dev libhiredis-dev libpng-dev chromium-headless-shell fonts-liberation iproute2 wpewebkit-driver cog
APT_TEST_PACKAGES := $(APT_RUN_PACKAGES) redis-server chromium chromium-driver stunnel4 openssl nodejs
SWIFT ?= swift
SHARDS ?= 8

.PHONY: setup setup-test build test lint format-check demo e2e clean bench bench-ui fuzz example-test listeditor-test reference-test install
PREFIX ?= /usr/local

## Install the Debian packages a run needs (skipped when already there).
setup:
	@scripts/apt-install $(APT_RUN_PACKAGES)

## setup, and what robotci's own tests need: more Debian packages and pytest (the command
## driver's tests): pip where python3 has it, else Debian's package.
setup-test:
	@scripts/apt-install $(APT_TEST_PACKAGES)
	@python3 -c 'import pytest' 2>/dev/null || python3 -m pip install -q pytest 2>/dev/null || scripts/apt-install python3-pytest

build: setup
	$(SWIFT) build --product robotci

## Release build of robotci, installed as $(DESTDIR)$(PREFIX)/bin/robotci. The binary needs
## the Swift runtime (the toolchain it runs `swift build` with anyway) and libxml2, libcurl
## and hiredis (`make setup`). Nothing else is installed: RobotKit and MockServer come into a
## team's package through its Package.swift.
install:
	$(SWIFT) build -c release --product robotci
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/robotci" "$(DESTDIR)$(PREFIX)/bin/robotci"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/robotci ($$("$(DESTDIR)$(PREFIX)/bin/robotci" --version))"

## A crash in a test, or in a robotci an end-to-end test started, prints the crashed thread
## last (no register dump, no image list): CI shows the tail of a failure's output.
TEST_BACKTRACE ?= enable=yes,interactive=no,threads=crashed,registers=none,images=none

## The project's tests: unit, end-to-end (the built robotci on fixture suites),
## browser tests, and the example suite run through robotci.
test: setup-test format-check
	@mkdir -p .build
	set -o pipefail; $(SWIFT) build --build-tests 2>&1 | tee .build/build-tests.log
	scripts/check-warnings .build/build-tests.log
	SWIFT_BACKTRACE=$(TEST_BACKTRACE) $(SWIFT) test --skip-build
	@if [ -d Examples/CharacterApp ]; then $(MAKE) --no-print-directory example-test; fi
	@if [ -d Examples/ListEditor ]; then $(MAKE) --no-print-directory listeditor-test; fi
	@if [ -d Examples/ReferenceSuite ]; then $(MAKE) --no-print-directory reference-test; fi

## swift-format's rules from .swift-format on Sources and Tests, any finding an error. Layout
## (indentation, line breaks, line length) is not checked: the tree predates the formatter and
## its whitespace findings cannot be turned off one by one, so the pretty printer is skipped.
format-check:
	$(SWIFT) format lint --strict --recursive --parallel --debug-disable-pretty-print Sources Tests

## The hand-written JavaScript (syntax, with node when installed) and its embedded copies.
lint:
	@if command -v node >/dev/null; then node --check robotkit-page/query.js && node --check web-report/report.js && node --check web-report/trace.js && node --check web-report/snapshot-compare.js; \
	else echo "lint: node is not installed; syntax not checked"; fi
	robotkit-page/embed --check
	web-report/embed --check

## The bundled example through robotci, 8 shards.
demo: build
	@if [ ! -d Examples/CharacterApp ]; then echo "Examples/CharacterApp is not there yet"; exit 2; fi
	.build/debug/robotci run --package Examples/CharacterApp --shards $(SHARDS) --report-dir robotci-report
	@scripts/mock-ports robotci-report/results.json
	@echo "report: $$(pwd)/robotci-report/index.html"

example-test: build
	.build/debug/robotci run --package Examples/CharacterApp --shards 4 --report-dir .build/example-report
	@scripts/mock-ports .build/example-report/results.json 4

## The action-heavy example (typing, double taps, keys, checkboxes, history, predicates)
## through robotci, 4 shards.
listeditor-test: build
	.build/debug/robotci run --package Examples/ListEditor --shards 4 --report-dir .build/listeditor-report
	@scripts/mock-ports .build/listeditor-report/results.json 4

## The references' XCUITest + SwiftMockServer vocabulary, unchanged but for imports and
## the app's location, through robotci (Examples/ReferenceSuite), 4 shards.
reference-test: build
	.build/debug/robotci run --package Examples/ReferenceSuite --shards 4 --report-dir .build/reference-report

bench: build
	bench/run

## The example UI suite: robotci vs its pytest + Playwright port (bench/ui/README.md).
bench-ui: setup-test
	bench/ui/run

## libFuzzer on the parsers (XCTest output, Swift Testing events, JUnit, scenarios),
## FUZZ_SECONDS per target, one target at a time; see fuzz/README.md.
FUZZ_SECONDS ?= 60
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run

clean:
	rm -rf robotci-report
