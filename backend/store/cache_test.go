package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestCacheClearedOnEveryReplica: a change through one store is seen at once by another
// store on the same PostgreSQL database that had the row cached, inside a transaction or not.
func TestCacheClearedOnEveryReplica(t *testing.T) {
	dsn := testenv.PostgresURL(t)
	a, b := testenv.Open(t, dsn), testenv.Open(t, dsn)
	ctx := context.Background()
	u := &store.User{Email: "c@example.org", Name: "C", PasswordHash: "x"}
	if err := a.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	waitLive(t, b, u.ID)
	for i, change := range []func() error{
		func() error { return a.SetDisabled(ctx, u.ID, true) },
		func() error {
			return a.WithTx(ctx, func(tx *store.Store) error { return tx.SetDisabled(ctx, u.ID, false) })
		},
		func() error { return a.SetDisabled(ctx, u.ID, true) },
	} {
		before, err := b.CachedUser(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now().UTC()
		if err := change(); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		after, err := b.CachedUser(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Disabled == before.Disabled || after.SessionGeneration != before.SessionGeneration+1 {
			t.Fatalf("change %d: the other store still serves the old row (disabled %v → %v)", i, before.Disabled, after.Disabled)
		}
		if took > time.Second {
			t.Errorf("change %d took %v: the writer's own notification did not come back", i, took)
		}
	}
}

// waitLive waits until st serves u from its cache (its listener is connected).
func waitLive(t *testing.T, st *store.Store, id string) {
	ctx := context.Background()
	for deadline := time.Now().UTC().Add(5 * time.Second); time.Now().UTC().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := st.CachedUser(ctx, id); err != nil {
			t.Fatal(err)
		}
		if st.CacheLive() {
			return
		}
	}
	t.Fatal("the store never listened for changes")
}

// TestCacheServesAuthenticationRows: the rows every request reads come from memory until a
// change through the store clears them (inside a transaction, once it commits); a change that
// bypasses the store is not seen until then, and missing rows are never kept.
func TestCacheServesAuthenticationRows(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		u, v := f.user("u"), f.user("v")
		p := f.project(u)
		pat := &store.PersonalAccessToken{UserID: u.ID, Name: "ci", Scopes: []string{"read"}, TokenHash: unique("hash"), CreatedAt: time.Now().UTC()}
		must(t, f.s.CreateAccessToken(f.ctx, pat))
		waitLive(t, f.s, u.ID)
		behind := func(query string, args ...any) { f.exec(query, args...) } // not through the store
		name := func() string {
			t.Helper()
			got, err := f.s.CachedUser(f.ctx, u.ID)
			must(t, err)
			return got.Name
		}

		equal(t, "first read", name(), "u")
		behind("UPDATE users SET name = 'behind' WHERE id = "+f.ph(1), u.ID)
		equal(t, "a change behind the store's back", name(), "u")
		got, _ := f.s.CachedUser(f.ctx, u.ID)
		got.Name = "mutated"
		equal(t, "a served copy changed by its reader", name(), "u")
		must(t, f.s.TouchAccessToken(f.ctx, pat.ID, time.Now().UTC()))
		equal(t, "after a use of a token", name(), "u")
		must(t, f.s.WithTx(f.ctx, func(tx *store.Store) error { return tx.SetCanCreateProjects(f.ctx, v.ID, true) }))
		equal(t, "after a committed change", name(), "behind")

		behind("UPDATE users SET name = 'rolled back' WHERE id = "+f.ph(1), u.ID)
		failed := errors.New("stop")
		err := f.s.WithTx(f.ctx, func(tx *store.Store) error {
			must(t, tx.SetDisabled(f.ctx, v.ID, true))
			return failed
		})
		if !errors.Is(err, failed) {
			t.Fatal(err)
		}
		equal(t, "after a change rolled back", name(), "rolled back")

		if _, err := f.s.CachedMember(f.ctx, p.ID, v.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a member not yet: %v", err)
		}
		f.member(p, v, store.RoleAnnotator)
		if m, err := f.s.CachedMember(f.ctx, p.ID, v.ID); err != nil || !m.Roles.Has(store.RoleAnnotator) {
			t.Fatalf("a new member: %+v, %v", m, err)
		}
		if got, err := f.s.CachedProject(f.ctx, p.ID); err != nil || got.Name != p.Name {
			t.Fatalf("cached project %+v, %v", got, err)
		}
		must(t, f.s.UpdateProject(f.ctx, &store.Project{ID: p.ID, Name: "renamed", Workflow: store.JSON(`{}`)}))
		if got, _ := f.s.CachedProject(f.ctx, p.ID); got.Name != "renamed" {
			t.Fatalf("a renamed project served as %q", got.Name)
		}
		if _, err := f.s.CachedAccessToken(f.ctx, pat.TokenHash); err != nil {
			t.Fatal(err)
		}
		must(t, f.s.RevokeAccessToken(f.ctx, u.ID, pat.ID))
		if _, err := f.s.CachedAccessToken(f.ctx, pat.TokenHash); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a revoked token: %v, want ErrNotFound", err)
		}

		f.s.UseCache(0)
		t.Cleanup(func() { f.s.UseCache(store.DefaultCacheTTL) })
		if f.s.CacheLive() {
			t.Fatal("a cache turned off is live")
		}
		behind("UPDATE users SET name = 'uncached' WHERE id = "+f.ph(1), u.ID)
		equal(t, "without the cache", name(), "uncached")
	})
}
