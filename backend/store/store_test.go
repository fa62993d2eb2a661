package store_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestStoreOnEveryBackend(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		f.run("migrate twice", func(t *testing.T, f *fixture) {
			must(t, f.s.Migrate(f.ctx, slog.New(slog.DiscardHandler)))
			cur, latest, err := f.s.SchemaVersion(f.ctx)
			if err != nil || cur != latest || cur == 0 {
				t.Fatalf("version %d of %d, %v", cur, latest, err)
			}
		})
		f.run("connection", func(t *testing.T, f *fixture) {
			must(t, f.s.Ping(f.ctx))
			if f.pg() != strings.HasPrefix(f.s.URL(), "postgres") {
				t.Fatalf("dialect %s for %s", f.s.Dialect(), f.s.URL())
			}
			if _, ok := f.s.SQLTx(); ok {
				t.Fatal("a store outside a transaction reports one")
			}
			// SQLite has nothing to maintain; PostgreSQL's pass is TestMaintain's
			if done, err := f.s.Maintain(f.ctx); !f.pg() && (err != nil || len(done.Analyzed)+len(done.Vacuumed) != 0) {
				t.Fatalf("maintenance of SQLite: %+v, %v", done, err)
			}
		})
		f.run("a failed transaction keeps nothing", func(t *testing.T, f *fixture) {
			u := &store.User{Email: unique("tx") + "@example.org", Name: "Tx", PasswordHash: "x"}
			failed := errors.New("stop")
			err := f.s.WithTx(f.ctx, func(tx *store.Store) error {
				if _, ok := tx.SQLTx(); !ok {
					t.Error("no transaction inside WithTx")
				}
				must(t, tx.CreateUser(f.ctx, u))
				return tx.WithTx(f.ctx, func(inner *store.Store) error {
					must(t, inner.SetDisabled(f.ctx, u.ID, true))
					return failed
				})
			})
			if !errors.Is(err, failed) {
				t.Fatalf("got %v, want the function's error", err)
			}
			if _, err := f.s.User(f.ctx, u.ID); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("the user of a failed transaction: %v, want ErrNotFound", err)
			}
			must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error { return tx.CreateUser(f.ctx, u) }))
			if _, err := f.s.User(f.ctx, u.ID); err != nil {
				t.Fatalf("the user of a committed transaction: %v", err)
			}
		})
	})
}

func TestOpenRefusesAnEmptyURL(t *testing.T) {
	if _, err := store.Open(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("got %v, want an error saying the url is empty", err)
	}
}

func TestMissing(t *testing.T) {
	err := store.Missing(fmt.Errorf("read: %w", store.ErrNotFound), "item")
	var nf *store.NotFoundError
	if !errors.As(err, &nf) || nf.What != "item" || err.Error() != "item not found" || !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Missing = %v", err)
	}
	other := errors.New("boom")
	if got := store.Missing(other, "item"); got != other {
		t.Fatalf("another error became %v", got)
	}
	if store.Missing(nil, "item") != nil {
		t.Fatal("no error became one")
	}
}

func TestUnavailable(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{store.ErrNotFound, false},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "57P01"}, true},
		{&pgconn.PgError{Code: "53300"}, true},
		{&pgconn.PgError{Code: "23505"}, false},
		{fmt.Errorf("query: %w", driver.ErrBadConn), true},
		{sql.ErrConnDone, true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{&net.OpError{Op: "dial", Err: errors.New("refused")}, true},
		{errors.New("write: broken pipe"), true},
		{errors.New("database is locked (5) (SQLITE_BUSY)"), true},
		{errors.New("syntax error"), false},
	} {
		if got := store.Unavailable(c.err); got != c.want {
			t.Errorf("Unavailable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// TestSeedFamilyUsesIndex: the seed-family query's expression is the one migration 00052
// indexes, so each engine plans index lookups of items_seed_idx, for a seed id written as text
// or as a number.
func TestSeedFamilyUsesIndex(t *testing.T) {
	// note: a fresh store, so that no other test's items and statistics sway the planner
	eachFreshBackend(t, func(t *testing.T, f *fixture) {
		conn, err := f.s.SQL().Conn(f.ctx)
		must(t, err)
		defer conn.Close()
		explain := "EXPLAIN QUERY PLAN "
		if f.pg() {
			// note: an empty table is cheaper to scan; the question is whether the index can serve
			if _, err := conn.ExecContext(f.ctx, "SET enable_seqscan = off"); err != nil {
				t.Fatal(err)
			}
			defer conn.ExecContext(f.ctx, "RESET enable_seqscan")
			explain = "EXPLAIN "
		}
		for _, seed := range []string{"seed-1", "7"} {
			query, args := store.SeedFamilyQuery(f.s, "p", seed, 21)
			for n := 1; f.pg() && strings.Contains(query, "?"); n++ {
				query = strings.Replace(query, "?", f.ph(n), 1)
			}
			rows, err := conn.QueryContext(f.ctx, explain+query, args...)
			must(t, err)
			cols, _ := rows.Columns()
			var plan []string
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				must(t, rows.Scan(ptrs...))
				plan = append(plan, fmt.Sprint(vals...))
			}
			must(t, rows.Close())
			text := strings.Join(plan, "\n")
			if !strings.Contains(text, "items_seed_idx") || strings.Contains(text, "items_project_external_key") || strings.Contains(text, "SCAN items") {
				t.Fatalf("seed %q: the plan does not look the family up in items_seed_idx:\n%s", seed, text)
			}
			t.Logf("seed %q:\n%s", seed, text)
		}
	})
}
