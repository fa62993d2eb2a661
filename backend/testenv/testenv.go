// Package testenv gives tests real databases and blob stores: SQLite always, PostgreSQL and
// MinIO when their addresses are configured. With ARBITER_TEST_REQUIRE_SERVICES=1 (as in CI) a
// missing service fails the test instead of skipping it.
package testenv

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx" for schema set-up

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// Environment variables that enable the integration suites.
const (
	EnvPostgres = "ARBITER_TEST_POSTGRES_URL" // e.g. postgres://postgres@127.0.0.1:5432/arbiter_test?sslmode=disable
	EnvS3       = "ARBITER_TEST_S3_URL"       // e.g. s3://bucket?endpoint=127.0.0.1:9000&secure=false
	EnvRequire  = "ARBITER_TEST_REQUIRE_SERVICES"
)

// Service skips the test when the service's variable is unset, or fails it when services are
// required. It returns the variable's value.
func Service(t testing.TB, envVar, what string) string {
	t.Helper()
	v := os.Getenv(envVar)
	if v != "" {
		return v
	}
	msg := fmt.Sprintf("%s suite not run: set %s to enable it (see README, Testing)", what, envVar)
	if os.Getenv(EnvRequire) == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Backend names a database engine for table-driven tests over both.
type Backend struct {
	Name string
	Open func(t testing.TB) *store.Store
}

// Backends returns SQLite and PostgreSQL; the PostgreSQL one skips or fails as Service says.
func Backends() []Backend {
	return []Backend{{"sqlite", SQLite}, {"postgres", Postgres}}
}

// SQLite opens a migrated store in a fresh temporary file.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	return Open(t, "sqlite:"+filepath.Join(t.TempDir(), "arbiter.db"))
}

// Postgres opens a migrated store in a fresh schema of the test database, dropped afterwards.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	return Open(t, PostgresURL(t))
}

// PostgresURL creates a fresh schema and returns a URL for it, so several stores (replicas)
// can share one database.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := Service(t, EnvPostgres, "PostgreSQL")
	schema := "t_" + randomHex(8)
	CreateSchema(t, base, schema)
	return WithSearchPath(t, base, schema)
}

// CreateSchema creates a schema in the PostgreSQL database at base and drops it after the test.
func CreateSchema(t testing.TB, base, schema string) {
	t.Helper()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", base)
		if err == nil {
			db.Exec("DROP SCHEMA " + schema + " CASCADE")
			db.Close()
		}
	})
}

// Getenv reads a variable of the test environment.
func Getenv(key string) string { return os.Getenv(key) }

// WithSearchPath adds a search_path to a PostgreSQL URL.
func WithSearchPath(t testing.TB, base, schema string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Open opens and migrates the store at dsn, closed after the test.
func Open(t testing.TB, dsn string) *store.Store { return OpenPool(t, dsn, store.DefaultPool) }

// OpenPool is Open with a pool of the given size and driver.
func OpenPool(t testing.TB, dsn string, pool store.Pool) *store.Store {
	t.Helper()
	ctx := context.Background()
	s, err := store.OpenPool(ctx, dsn, pool)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	return s
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// RandomName returns a unique lower-case name, e.g. for buckets.
func RandomName(prefix string) string { return prefix + randomHex(6) }
