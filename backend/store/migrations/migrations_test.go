package migrations_test

import (
	"context"
	"database/sql"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	_ "github.com/glebarez/sqlite" // note: registers the database/sql driver "sqlite"

	"github.com/arbiter-annotation/arbiter/backend/store/migrations"
)

// TestNumbering: every SQL file and Go migration has a number of its own (numbers only grow:
// some were never used), so every engine applies the same changes in the same order.
func TestNumbering(t *testing.T) {
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("embedded migrations: %v %v", files, err)
	}
	seen := map[int64]string{}
	for _, f := range files {
		n, err := strconv.ParseInt(strings.SplitN(f, "_", 2)[0], 10, 64)
		if err != nil {
			t.Fatalf("%s is not numbered", f)
		}
		if prev, ok := seen[n]; ok {
			t.Errorf("%s and %s share number %d", prev, f, n)
		}
		seen[n] = f
	}
	for _, pg := range []bool{false, true} {
		for _, m := range migrations.Go(pg) {
			if prev, ok := seen[m.Version]; ok && prev != "go" {
				t.Errorf("Go migration %d shares its number with %s", m.Version, prev)
			}
			seen[m.Version] = "go"
		}
	}
}

// TestSeedIndexMigration: the Go migration creates and drops the seed index with the engine's
// own expression.
func TestSeedIndexMigration(t *testing.T) {
	if !strings.Contains(migrations.SeedExpr(true), "->>") || !strings.Contains(migrations.SeedExpr(false), "json_extract") {
		t.Fatalf("seed expressions: %q %q", migrations.SeedExpr(true), migrations.SeedExpr(false))
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE TABLE items (project_id TEXT, meta TEXT, external_id TEXT)"); err != nil {
		t.Fatal(err)
	}
	m := migrations.Go(false)[0]
	for _, step := range []struct {
		name  string
		run   func(context.Context, *sql.Tx) error
		count int
	}{{"up", m.UpFnContext, 1}, {"down", m.DownFnContext, 0}} {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := step.run(ctx, tx); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		var n int
		db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'items_seed_idx'").Scan(&n)
		if n != step.count {
			t.Errorf("after %s: %d seed indexes, want %d", step.name, n, step.count)
		}
	}
}
