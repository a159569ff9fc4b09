# gcplay: the commands a new user needs are `make install`, `make run` and `make test`.
GO ?= go
STATICCHECK_VERSION ?= v0.8.2
# gotestsum runs the tests and ends with a summary of what failed and what
# was skipped, with each skip's reason; `go run` fetches it from the Go
# module proxy, so nothing has to be installed first.
GOTESTSUM_VERSION ?= v1.13.0
GOTESTSUM = $(GO) run gotest.tools/gotestsum@$(GOTESTSUM_VERSION) --format pkgname-and-test-fails --format-hide-empty-pkg --
export GOFLAGS ?= -mod=mod

.PHONY: run build install test unit race gotestsum-version lint bench fuzz clean web web-serve web-bench

## run: open the playground (TUI) on the built-in starter world
run:
	$(GO) run ./cmd/gcplay

## build: build the gcplay binary into bin/
build:
	$(GO) build -o bin/gcplay ./cmd/gcplay

## install: put the gcplay command on your PATH (in `go env GOBIN`, else `go env GOPATH`/bin)
install:
	$(GO) install ./cmd/gcplay
	@dir="$$($(GO) env GOBIN)"; [ -n "$$dir" ] || dir="$$($(GO) env GOPATH)/bin"; \
	echo "installed $$dir/gcplay"; \
	case ":$$PATH:" in *":$$dir:"*) ;; *) echo "$$dir is not on your PATH: add it, e.g. export PATH=\"$$dir:\$$PATH\"";; esac

## test: every check CI runs (lint, unit, data-driven, scenario, CLI and end-to-end tests).
## It ends with the tests skipped and why; with CI=true a test that needs a
## missing tool (tmux, Chromium) fails instead of skipping.
test: lint unit race

# unit needs the browser page built: webtest drives it in headless Chromium.
unit: web
	GCPLAY_SITE=$(CURDIR)/$(SITE) $(GOTESTSUM) -count=1 ./...

gotestsum-version:
	@$(GO) run gotest.tools/gotestsum@$(GOTESTSUM_VERSION) --version

## race: the packages where goroutines run, under the race detector
race:
	$(GOTESTSUM) -count=1 -race ./tui/... ./cmd/... ./internal/...

## lint: gofmt, go vet and staticcheck
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

## bench: the benchmarks whose figures are in docs/BENCHMARKS.md
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

## fuzz: run each fuzz target for FUZZTIME (default 10m)
FUZZTIME ?= 10m
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzPatchDelete -fuzztime=$(FUZZTIME) ./fakeapi
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./scenario
	$(GO) test -run='^$$' -fuzz=FuzzDumpDirect -fuzztime=$(FUZZTIME) -fuzzminimizetime=10s ./scenario

## web: build the browser page, a static site, into $(SITE)/ (serve it with gcplay web)
SITE ?= site
XTERM := web/node_modules/@xterm
web:
	@build/wasm-shim/build.sh --check
	@if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then \
		echo "cd web && npm ci"; cd web && npm ci --no-audit --no-fund; fi
	@rm -f $(SITE)/main.*.wasm $(SITE)/main.*.wasm.br $(SITE)/main.*.wasm.gz
	@mkdir -p $(SITE)/xterm
	build/wasm-shim/build.sh $(SITE)/main.wasm
	@cp web/index.html web/main.js web/style.css web/sw.js $(SITE)/
	@root="$$($(GO) env GOROOT)"; if [ -f "$$root/lib/wasm/wasm_exec.js" ]; then cp "$$root/lib/wasm/wasm_exec.js" $(SITE)/; \
		else cp "$$root/misc/wasm/wasm_exec.js" $(SITE)/; fi
	@sed '/sourceMappingURL=/d' $(XTERM)/xterm/lib/xterm.mjs > $(SITE)/xterm/xterm.mjs
	@sed '/sourceMappingURL=/d' $(XTERM)/addon-fit/lib/addon-fit.mjs > $(SITE)/xterm/addon-fit.mjs
	@cp $(XTERM)/xterm/css/xterm.css $(SITE)/xterm/
	@# main.wasm gets its content's hash in its name; every file a brotli and
	@# a gzip copy (the brotli copy of main.wasm is kept in build/wasm/ by hash).
	$(GO) run ./build/sitepack $(SITE)
	@echo "built $(SITE)/; serve it with: go run ./cmd/gcplay web --dir $(SITE)"

## web-serve: build the page and serve it on http://127.0.0.1:8080
web-serve: web
	$(GO) run ./cmd/gcplay web --dir $(SITE)

## web-bench: measure the page (download size, first frame, key latency: 30 keys of each kind, in three fresh pages) for docs/BENCHMARKS.md
web-bench: web
	GCPLAY_SITE=$(CURDIR)/$(SITE) $(GO) test -count=1 -run='^TestWebBench$$' -v ./webtest -webbench -webkeyrounds=3

clean:
	rm -rf bin site build/wasm

## conformance: run every scenario and lesson gcplay ships against real Kubernetes: an
## in-process etcd, kube-apiserver and garbage collector of the release in
## conformance/VERSION (docs/CONFORMANCE.md), and each scenario's script of
## gcplay export kubectl with that release's kubectl, built into bin/ from the
## module proxy's source. The first build compiles Kubernetes: minutes.
CONFORMANCE_INPUTS ?= ../examples ../scenario/testdata ../cmd/gcplay/testdata/script testdata
CONFORMANCE_FLAGS ?= -lessons -kubectl ../bin/kubectl
.PHONY: conformance
conformance:
	cd conformance && $(GO) test -count=1 ./internal/... && $(GO) build -o ../bin/kubectl k8s.io/kubernetes/cmd/kubectl && \
		$(GO) build -o ../bin/conformance . && ../bin/conformance $(CONFORMANCE_FLAGS) $(CONFORMANCE_INPUTS)

## conformance-random: N generated worlds (internal/randworld; seeds SEED, SEED+1, ...) on gcplay
## and on real Kubernetes: each disagreement side by side, with a minimised world; worlds whose
## real outcome varies between runs set apart (docs/CONFORMANCE.md, "Random worlds").
## CI runs N=$(CI_RANDOM_N); the nightly size is `make conformance-random N=200`.
N ?= 200
SEED ?= 1
CI_RANDOM_N ?= 20
CONFORMANCE_RANDOM_FLAGS ?=
.PHONY: conformance-random conformance-random-ci
conformance-random:
	cd conformance && $(GO) build -o ../bin/conformance . && ../bin/conformance -random $(N) -seed $(SEED) $(CONFORMANCE_RANDOM_FLAGS)
conformance-random-ci:
	$(MAKE) conformance-random N=$(CI_RANDOM_N) SEED=1
