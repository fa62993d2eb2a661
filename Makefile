# Arbiter: build the UI and the binary, run it, test everything.
GO      ?= go
BIN     := bin/arbiter
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/arbiter-annotation/arbiter/backend/cli.Version=$(VERSION)

.PHONY: run build ui test test-go test-faults test-ui test-e2e vet fmt clean

## run: build everything and serve on the embedded defaults (SQLite and blobs in ./arbiter-data)
run: build
	@echo "== starting $(BIN) serve"
	$(BIN) serve

## build: the web UI, then the binary with the UI embedded, at bin/arbiter
build: ui
	@echo "== building $(BIN) with the UI embedded (the first build downloads Go modules and compiles them: a few minutes; packages are listed as they compile)"
	CGO_ENABLED=0 $(GO) build -v -ldflags '$(LDFLAGS)' -o $(BIN) ./backend/cmd/arbiter
	@echo "== built $(BIN)"

ui: frontend/node_modules/.installed
	@echo "== building the web UI into frontend/dist"
	cd frontend && npm run build

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	@echo "== installing the UI's dependencies (npm ci)"
	cd frontend && npm ci --no-audit --no-fund
	touch $@

## test: every suite — Go (SQLite, PostgreSQL, MinIO), UI unit tests, browser tests
test: build
	.ci/test.sh

## test-go: Go tests only, without the UI (no Node needed)
test-go:
	$(GO) test -tags no_ui ./...

## test-faults: replicas killed, database connections cut, MinIO stopped and memberships changed under load (PostgreSQL and the minio binary; a few minutes)
test-faults:
	GO=$(GO) .ci/faults.sh

vet:
	$(GO) vet -tags no_ui ./...

fmt:
	gofmt -w $(wildcard backend tasks agreement exports) frontend/*.go

clean:
	rm -rf bin frontend/dist test-artifacts
