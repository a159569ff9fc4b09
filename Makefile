# gcplay: the two commands a new user needs are `make run` and `make test`.
GO ?= go
STATICCHECK_VERSION ?= v0.8.2
export GOFLAGS ?= -mod=mod

.PHONY: run build test unit race lint bench fuzz clean

## run: open the playground (TUI) on the built-in starter world
run:
	$(GO) run ./cmd/gcplay

## build: build the gcplay binary into bin/
build:
	$(GO) build -o bin/gcplay ./cmd/gcplay

## test: every check CI runs (lint, unit, data-driven, scenario, CLI and end-to-end tests)
test: lint unit race

unit:
	$(GO) test -count=1 ./...

## race: the packages where goroutines run, under the race detector
race:
	$(GO) test -count=1 -race ./tui/... ./cmd/...

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

clean:
	rm -rf bin site build

## conformance: run every scenario gcplay ships against real Kubernetes: an in-process
## etcd, kube-apiserver and garbage collector of the release in conformance/VERSION
## (docs/CONFORMANCE.md). The first build compiles Kubernetes: minutes.
CONFORMANCE_INPUTS ?= ../../shared/scenarios ../scenario/testdata ../cmd/gcplay/testdata/script testdata
CONFORMANCE_FLAGS ?=
.PHONY: conformance
conformance:
	cd conformance && $(GO) build -o ../bin/conformance . && ../bin/conformance $(CONFORMANCE_FLAGS) $(CONFORMANCE_INPUTS)
