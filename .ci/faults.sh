#!/usr/bin/env bash
# Runs the fault suites (backend/cli/faults*_test.go): replicas killed (annotating, and writing a
# release), database connections cut, MinIO stopped, and role changes, removals and pass changes
# racing submits, under load. They need PostgreSQL and the minio binary (they start their own
# MinIO server). A fresh database is created on 127.0.0.1:5432 (user postgres) unless
# ARBITER_TEST_POSTGRES_URL names one.
set -euo pipefail
cd "$(dirname "$0")/.."
created_db=""
cleanup() {
  [ -n "$created_db" ] && psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $created_db WITH (FORCE)" >/dev/null 2>&1
  return 0
}
trap cleanup EXIT

if [ -z "${ARBITER_TEST_POSTGRES_URL:-}" ]; then
  if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    echo "the fault suites need PostgreSQL: start one at 127.0.0.1:5432 or set ARBITER_TEST_POSTGRES_URL"; exit 1
  fi
  created_db="arbiter_faults_$(date +%s)_$$"
  psql -h 127.0.0.1 -U postgres -q -c "CREATE DATABASE $created_db" >/dev/null
  export ARBITER_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:5432/$created_db?sslmode=disable"
fi
export ARBITER_TEST_REQUIRE_SERVICES=1
${GO:-go} test -tags 'no_ui faults' -count=1 -timeout 20m -run "${1:-TestFault}" -v ./backend/cli/
