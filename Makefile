# Portico — `make run` starts the product, `make test` runs every test.
# `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO          ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
WEB_DEPS    := web/node_modules/.installed
FB_DEPS     := tools/firebase/node_modules/.installed
BIN         := bin/portico
GO_SOURCES  := $(shell find cmd internal web -name '*.go' -o -name '*.sql' -o -name '*.yaml' 2>/dev/null) go.mod go.sum
WEB_SOURCES := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/vite.config.ts web/scripts/compress.mjs web/package.json web/tsconfig.json web/package-lock.json

.PHONY: help run test test-go test-web test-e2e lint deploy-check bench bench-mixed bench-events bench-drivers build ui deps chromium clean

help: ## list the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

run: build $(FB_DEPS) ## build, seed the demo on first run, start the auth emulator and the server
	@scripts/run.sh

test: test-go test-web test-e2e ## all tests: Go (race), web unit tests, end-to-end in Chromium

# The slowest test packages first: go test starts packages in the order named, two at a
# time on two cores, so the longest (sqlstore and erpsync, about 250 s and 180 s under
# -race beside the others; their tests on both engines run in parallel with each other)
# no longer start last, after the rest. Any package left out still runs, through ./...
SLOW_GO_TESTS := ./internal/sqlstore ./internal/erpsync ./internal/httpapi
# SQLite itself (modernc.org/sqlite/lib, its C translated to Go) is compiled without the
# race detector's instrumentation, as a cgo driver's C would be: its memory is its own,
# guarded by SQLite's mutexes, and instrumenting every step of its VM made the race run
# 2.3x slower (sqlstore 284 s against 138 s). Our packages and every other one, the
# driver's Go side included, are still instrumented. (Leaving out all of modernc.org/...,
# libc too, gave false reports in the standard library's sync.Map caches: keep it to lib.)
RACE_FLAGS := -race -gcflags='modernc.org/sqlite/lib=-race=false'

test-go: web/dist ## Go tests with -race (PostgreSQL too when PORTICO_TEST_DATABASE_URL is set)
	$(GO) build -o bin/testreport ./scripts/testreport
	$(GO) test $(RACE_FLAGS) -count=1 -json $(SLOW_GO_TESTS) ./... | bin/testreport -list '^Test[^/]*Conformance[^/]*/[^/]+$$' \
		-title 'Store conformance suite, per engine (SKIP = PORTICO_TEST_DATABASE_URL unset):'

test-web: web/dist ## web unit tests (Vitest) and the first-load bundle budgets
	cd web && npm test
	cd web && npm run check:bundle

test-e2e: build $(FB_DEPS) chromium ## Playwright end-to-end suite in Debian's Chromium, with the auth emulator
	scripts/with-emulator.sh bash -c 'cd web && npx playwright test'

# The driver comparison (bench-drivers) is behind a build tag: vetting it keeps it compiling.
lint: $(WEB_DEPS) web/dist ## gofmt, go vet, staticcheck, tsc --noEmit, eslint
	@test -z "$$(gofmt -l cmd internal web/*.go)" || { gofmt -l cmd internal web/*.go; echo 'gofmt: run gofmt -w on the files above'; exit 1; }
	$(GO) vet ./...
	$(GO) vet -tags noui ./web/...
	$(GO) vet -tags driverbench ./internal/sqlstore/
	$(GO) run $(STATICCHECK) ./...
	cd web && npm run typecheck && npm run lint

# Not part of make test or CI: the tools are Debian's nginx, prometheus (promtool) and systemd,
# which the build does not need; each missing one is skipped with a message.
deploy-check: ## check the syntax of deploy/ (systemd unit, nginx, Prometheus config and alerts) with the tools installed
	@scripts/deploy-check.sh

bench: web/dist ## the records API and search under load (1M projects, built once into bench/out), the ERP pull (1M records), the mixed load on SQLite, PostgreSQL and 3 instances, one company flooded beside another, the Go micro-benchmarks
	$(GO) run ./bench
	$(GO) run ./bench/sync
	$(GO) run ./bench/mixed
	$(GO) run ./bench/events
	$(GO) run ./bench/tenants
	$(GO) test -run '^$$' -bench . -benchtime 2s ./internal/...

bench-mixed: web/dist ## reads, search, creates and edits at 100 connections on SQLite, PostgreSQL (127.0.0.1:5432) and 3 instances behind a proxy; checks every acknowledged write is stored once
	$(GO) run ./bench/mixed

bench-events: web/dist ## live updates: 1,000 event streams and one edit a second on SQLite and on 3 instances on PostgreSQL (127.0.0.1:5432); delivery p50/p99, memory per stream, CPU
	$(GO) run ./bench/events

bench-drivers: ## the SQLite driver comparison (modernc vs mattn, cgo) behind docs/performance.md's choice
	$(GO) test -tags 'driverbench sqlite_fts5' -run '^$$' -bench ListPage -count 5 ./internal/sqlstore/

build: $(BIN) ## build the binary with the app embedded

$(BIN): web/dist $(GO_SOURCES)
	$(GO) build -trimpath -o $(BIN) ./cmd/portico

ui: web/dist ## build the web app

web/dist: $(WEB_DEPS) $(WEB_SOURCES)
	cd web && npm run build
	@touch web/dist

deps: $(WEB_DEPS) $(FB_DEPS) ## install the front-end and emulator packages

$(WEB_DEPS): web/package.json web/package-lock.json
	cd web && npm ci --no-fund --no-audit
	@touch $@

$(FB_DEPS): tools/firebase/package.json tools/firebase/package-lock.json
	cd tools/firebase && npm ci --no-fund --no-audit --omit=optional
	@touch $@

chromium: ## install Debian's Chromium for the end-to-end tests when missing
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

clean: ## remove build output (keeps ./data)
	rm -rf bin web/dist web/dist-meta web/test-results web/playwright-report
