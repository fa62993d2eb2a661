package store_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/store/migrations"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

func TestStoreOnEveryBackend(t *testing.T) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			s := b.Open(t)
			ctx := context.Background()
			t.Run("users", func(t *testing.T) { testUsers(t, ctx, s) })
			t.Run("projects", func(t *testing.T) { testProjects(t, ctx, s) })
			t.Run("refresh", func(t *testing.T) { testRefresh(t, ctx, s) })
			t.Run("throttle", func(t *testing.T) { testThrottle(t, ctx, s) })
			t.Run("settings", func(t *testing.T) { testSettings(t, ctx, s) })
			t.Run("migrate twice", func(t *testing.T) {
				if err := s.Migrate(ctx, slog.New(slog.DiscardHandler)); err != nil {
					t.Fatal(err)
				}
				cur, latest, err := s.SchemaVersion(ctx)
				if err != nil || cur != latest || cur == 0 {
					t.Fatalf("version %d of %d, %v", cur, latest, err)
				}
			})
		})
	}
}

func testUsers(t *testing.T, ctx context.Context, s *store.Store) {
	u := &store.User{Email: " Ana@Example.org ", Name: "Ana", PasswordHash: "x"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	dup := &store.User{Email: "ana@example.org", Name: "Other", PasswordHash: "x"}
	if err := s.CreateUser(ctx, dup); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate email: got %v, want ErrConflict", err)
	}
	got, err := s.UserByEmail(ctx, "ANA@example.org")
	if err != nil || got.ID != u.ID || got.Email != "ana@example.org" {
		t.Fatalf("UserByEmail = %+v, %v", got, err)
	}
	if _, err := s.User(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing user: %v", err)
	}
	if got.CreatedAt.IsZero() || time.Since(got.CreatedAt) > time.Minute {
		t.Fatalf("created_at not round-tripped: %v", got.CreatedAt)
	}
}

func testProjects(t *testing.T, ctx context.Context, s *store.Store) {
	lead := &store.User{Email: "lead@example.org", Name: "Lead", PasswordHash: "x"}
	other := &store.User{Email: "other@example.org", Name: "Other", PasswordHash: "x"}
	for _, u := range []*store.User{lead, other} {
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	p := &store.Project{Name: "P", CreatedBy: lead.ID}
	if err := s.CreateProject(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	m, err := s.Member(ctx, p.ID, lead.ID)
	if err != nil || !m.Roles.Has(store.RoleLead) {
		t.Fatalf("creator membership = %+v, %v", m, err)
	}
	if err := s.SetMember(ctx, p.ID, other.ID, store.RoleSet{store.RoleViewer, store.RoleAnnotator, store.RoleViewer}); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Members(ctx, p.ID)
	if err != nil || len(ms) != 2 {
		t.Fatalf("members = %+v, %v", ms, err)
	}
	if got := ms[1].Roles; len(got) != 2 || got[0] != store.RoleAnnotator || got[1] != store.RoleViewer {
		t.Fatalf("roles not normalised: %v", got)
	}
	mine, _ := s.Projects(ctx, other.ID, false)
	all, _ := s.Projects(ctx, "", false)
	if len(mine) != 1 || len(all) < 1 {
		t.Fatalf("projects: mine %d all %d", len(mine), len(all))
	}
	if err := s.SetMember(ctx, p.ID, other.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Member(ctx, p.ID, other.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("removed member still there: %v", err)
	}
}

func testRefresh(t *testing.T, ctx context.Context, s *store.Store) {
	u := &store.User{Email: "r@example.org", Name: "R", PasswordHash: "x"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	rt := &store.RefreshToken{UserID: u.ID, FamilyID: "fam", TokenHash: "h1", ExpiresAt: time.Now().Add(time.Hour), CreatedAt: time.Now()}
	if err := s.CreateRefreshToken(ctx, rt); err != nil {
		t.Fatal(err)
	}
	ok, err := s.UseRefreshToken(ctx, rt.ID)
	if err != nil || !ok {
		t.Fatalf("first use: %v %v", ok, err)
	}
	if ok, _ := s.UseRefreshToken(ctx, rt.ID); ok {
		t.Fatal("a token was used twice")
	}
	if err := s.RevokeRefreshFamily(ctx, "fam"); err != nil {
		t.Fatal(err)
	}
	got, _ := s.RefreshTokenByHash(ctx, "h1")
	if got.RevokedAt == nil {
		t.Fatal("family not revoked")
	}
}

func testThrottle(t *testing.T, ctx context.Context, s *store.Store) {
	for i := 1; i <= 3; i++ {
		counts, err := s.RecordLoginFailure(ctx, time.Minute, "acct:a", "ip:1")
		if err != nil || counts[0] != i || counts[1] != i {
			t.Fatalf("failure %d counted %v (%v)", i, counts, err)
		}
	}
	if f, _ := s.LoginFailures(ctx, "acct:a", time.Minute); f.Count != 3 || time.Since(f.Last) > time.Minute {
		t.Fatalf("failures = %+v, want 3 just now", f)
	}
	if f, _ := s.LoginFailures(ctx, "acct:a", 0); f.Count != 0 {
		t.Fatalf("a quiet key still counts %d", f.Count)
	}
	if counts, _ := s.RecordLoginFailure(ctx, 0, "acct:a"); counts[0] != 1 {
		t.Fatalf("a failure after a quiet window counts %d, want 1", counts[0])
	}
	s.ClearLoginFailures(ctx, "acct:a")
	if f, _ := s.LoginFailures(ctx, "acct:a", time.Minute); f.Count != 0 {
		t.Fatalf("cleared failures = %d", f.Count)
	}
}

func testSettings(t *testing.T, ctx context.Context, s *store.Store) {
	first, err := s.Setting(ctx, "k", func() (string, error) { return "one", nil })
	if err != nil || first != "one" {
		t.Fatalf("first = %q, %v", first, err)
	}
	again, _ := s.Setting(ctx, "k", func() (string, error) { return "two", nil })
	if again != "one" {
		t.Fatalf("setting changed to %q", again)
	}
}

// TestSeedFamilyUsesIndex: the seed-family query's expression is the one migration 00052
// indexes, so each engine plans an index lookup of items_seed_idx.
func TestSeedFamilyUsesIndex(t *testing.T) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			s := b.Open(t)
			ctx := context.Background()
			pg := s.Dialect() == store.Postgres
			conn, err := s.SQL().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			explain := "EXPLAIN QUERY PLAN "
			if pg {
				// note: an empty table is cheaper to scan; the question is whether the index can serve
				if _, err := conn.ExecContext(ctx, "SET enable_seqscan = off"); err != nil {
					t.Fatal(err)
				}
				defer conn.ExecContext(ctx, "RESET enable_seqscan")
				explain = "EXPLAIN "
			}
			rows, err := conn.QueryContext(ctx, explain+`SELECT id, external_id, stage, meta FROM items
WHERE project_id = $1 AND `+migrations.SeedExpr(pg)+` = $2 ORDER BY external_id LIMIT 21`, "p", "seed-1")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			var plan []string
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, fmt.Sprint(vals...))
			}
			if !strings.Contains(strings.Join(plan, "\n"), "items_seed_idx") {
				t.Fatalf("plan does not use items_seed_idx:\n%s", strings.Join(plan, "\n"))
			}
			t.Logf("plan:\n%s", strings.Join(plan, "\n"))
		})
	}
}
