#!/usr/bin/env bash
# Runs every test suite against real services: Go tests on SQLite and PostgreSQL and on the local
# blob store and MinIO, the UI unit tests, and the browser tests in Chromium against bin/arbiter.
#
# Services are provisioned when they can be: a fresh database on the PostgreSQL server at
# 127.0.0.1:5432 (user postgres), and a MinIO server started on a loopback port when the minio
# binary is on PATH or in ~/go/bin. Suites whose service is missing are skipped with a message,
# or fail when ARBITER_TEST_REQUIRE_SERVICES=1 (as in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=$(mktemp -d)
minio_pid=""
created_db=""

cleanup() {
  [ -n "$minio_pid" ] && kill "$minio_pid" 2>/dev/null && wait "$minio_pid" 2>/dev/null
  [ -n "$created_db" ] && psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $created_db WITH (FORCE)" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
random_word() { head -c 24 /dev/urandom | base64 | tr -dc 'a-zA-Z0-9' | head -c "${1:-20}"; }
skipped=()

# PostgreSQL: a fresh database per run.
if [ -z "${ARBITER_TEST_POSTGRES_URL:-}" ]; then
  if command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    created_db="arbiter_test_$(date +%s)_$$"
    psql -h 127.0.0.1 -U postgres -q -c "CREATE DATABASE $created_db" >/dev/null
    export ARBITER_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:5432/$created_db?sslmode=disable"
  else
    skipped+=("PostgreSQL suites: no server at 127.0.0.1:5432; start one or set ARBITER_TEST_POSTGRES_URL")
  fi
fi

# MinIO: a throwaway server with made-up credentials.
if [ -z "${ARBITER_TEST_S3_URL:-}" ]; then
  minio_bin=$(command -v minio || true)
  [ -z "$minio_bin" ] && [ -x "$HOME/go/bin/minio" ] && minio_bin="$HOME/go/bin/minio"
  if [ -n "$minio_bin" ]; then
    port=$(free_port); console=$(free_port)
    user="test$(random_word 12)"; pass="$(random_word 32)"
    MINIO_ROOT_USER="$user" MINIO_ROOT_PASSWORD="$pass" MINIO_BROWSER=off \
      "$minio_bin" server "$tmp/minio" --address "127.0.0.1:$port" --console-address "127.0.0.1:$console" \
      >"$tmp/minio.log" 2>&1 &
    minio_pid=$!
    for _ in $(seq 1 100); do
      curl -fsS "http://127.0.0.1:$port/minio/health/live" >/dev/null 2>&1 && break
      sleep 0.2
    done
    export ARBITER_TEST_S3_URL="s3://arbiter-test?endpoint=127.0.0.1:$port&secure=false"
    export ARBITER_TEST_S3_ACCESS_KEY="$user" ARBITER_TEST_S3_SECRET_KEY="$pass"
  else
    skipped+=("MinIO suites: no minio binary; run: go install github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c")
  fi
fi

# Chromium for the browser tests.
if [ -z "${ARBITER_CHROMIUM:-}" ] && [ -x /usr/bin/chromium ]; then export ARBITER_CHROMIUM=/usr/bin/chromium; fi
if [ -z "${ARBITER_CHROMIUM:-}" ]; then
  skipped+=("browser tests: no Chromium; run: apt-get install -y chromium")
fi

if [ ${#skipped[@]} -gt 0 ]; then
  if [ "${ARBITER_TEST_REQUIRE_SERVICES:-}" = "1" ]; then
    printf 'required services are missing:\n'; printf '  - %s\n' "${skipped[@]}"; exit 1
  fi
  printf '\nNOTE: these suites will be skipped:\n'; printf '  - %s\n' "${skipped[@]}"; printf '\n'
fi

# note: npm packages may ship Go files under frontend/node_modules; they are not the product's
go_pkgs=$(go list ./... | grep -v /node_modules/)

echo "== Go checks"
go vet $go_pkgs
if ! go mod tidy -diff >/dev/null; then
  echo "go.mod or go.sum is not tidy; run: go mod tidy"; go mod tidy -diff; exit 1
fi
unformatted=$(gofmt -l $(ls -d backend tasks agreement exports 2>/dev/null))
if [ -n "$unformatted" ]; then echo "not gofmt-formatted (run make fmt):"; echo "$unformatted"; exit 1; fi

echo "== Go tests"
# The packages that hold the workflow's concurrency run under the race detector.
race_pkgs="./backend/workflow/... ./backend/api/... ./backend/store/..."
go test -count=1 $(echo "$go_pkgs" | grep -v -E '/backend/(workflow|api|store)(/|$)')
CGO_ENABLED=1 go test -race -count=1 -timeout 30m $race_pkgs

echo "== Contract and UI checks: docs/openapi.yaml lints clean (Redocly, recommended rules), types generated from it are current, lint, type-check, no import circles"
(cd frontend && npm run --silent lint:api && npm run --silent check:api && npm run --silent lint && npm run --silent typecheck && npm run --silent check:circles)

echo "== UI unit tests"
(cd frontend && npx vitest run)

echo "== Browser tests"
if [ -n "${ARBITER_CHROMIUM:-}" ]; then
  mkdir -p "$root/test-artifacts"
  ARBITER_BIN="$root/bin/arbiter" node --test --test-concurrency=1 frontend/e2e/
fi

if [ ${#skipped[@]} -gt 0 ]; then
  printf '\nSkipped (see above for how to enable):\n'; printf '  - %s\n' "${skipped[@]}"
fi
