package store_test

import (
	"context"
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
		start := time.Now()
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
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := st.CachedUser(ctx, id); err != nil {
			t.Fatal(err)
		}
		if st.CacheLive() {
			return
		}
	}
	t.Fatal("the store never listened for changes")
}
