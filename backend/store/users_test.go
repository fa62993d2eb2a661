package store_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestUsers(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		before, err := f.s.UserCount(f.ctx)
		must(t, err)
		local := unique("ana")
		u := &store.User{Email: " " + strings.ToUpper(local) + "@Example.org ", Name: "Ana", PasswordHash: "x"}
		must(t, f.s.CreateUser(f.ctx, u))
		dup := &store.User{Email: local + "@example.org", Name: "Other", PasswordHash: "x"}
		if err := f.s.CreateUser(f.ctx, dup); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("duplicate email: got %v, want ErrConflict", err)
		}
		got, err := f.s.UserByEmail(f.ctx, strings.ToUpper(local)+"@EXAMPLE.org")
		if err != nil || got.ID != u.ID || got.Email != local+"@example.org" {
			t.Fatalf("UserByEmail = %+v, %v", got, err)
		}
		if got.CreatedAt.IsZero() || time.Since(got.CreatedAt) > time.Minute {
			t.Fatalf("created_at not round-tripped: %v", got.CreatedAt)
		}
		if _, err := f.s.User(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing user: %v", err)
		}
		if _, err := f.s.UserByEmail(f.ctx, "nobody@example.org"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing email: %v", err)
		}
		f.user("zed")
		n, err := f.s.UserCount(f.ctx)
		must(t, err)
		equal(t, "users added", n-before, int64(2))
		all, err := f.s.Users(f.ctx)
		must(t, err)
		for i := 1; i < len(all); i++ {
			if all[i-1].Email >= all[i].Email {
				t.Fatalf("users not in email order: %q before %q", all[i-1].Email, all[i].Email)
			}
		}
		if int64(len(all)) != n {
			t.Fatalf("%d users listed of %d", len(all), n)
		}
	})
}

func TestUserChanges(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		u := f.user("u")
		read := func() *store.User {
			t.Helper()
			got, err := f.s.User(f.ctx, u.ID)
			must(t, err)
			return got
		}
		for _, c := range []struct {
			name       string
			change     func(id string) error
			check      func(*store.User) bool
			generation int // how much the session generation moves
		}{
			{"grant project creation", func(id string) error { return f.s.SetCanCreateProjects(f.ctx, id, true) },
				func(g *store.User) bool { return g.CanCreateProjects }, 0},
			{"withdraw project creation", func(id string) error { return f.s.SetCanCreateProjects(f.ctx, id, false) },
				func(g *store.User) bool { return !g.CanCreateProjects }, 0},
			{"new password", func(id string) error { return f.s.SetPassword(f.ctx, id, "new-hash") },
				func(g *store.User) bool { return g.PasswordHash == "new-hash" }, 1},
			{"disable", func(id string) error { return f.s.SetDisabled(f.ctx, id, true) },
				func(g *store.User) bool { return g.Disabled }, 1},
			{"enable", func(id string) error { return f.s.SetDisabled(f.ctx, id, false) },
				func(g *store.User) bool { return !g.Disabled }, 1},
		} {
			before := read()
			must(t, c.change(u.ID))
			after := read()
			if !c.check(after) || after.SessionGeneration != before.SessionGeneration+c.generation {
				t.Fatalf("%s: %+v (generation %d before)", c.name, after, before.SessionGeneration)
			}
			if err := c.change("missing"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s of a missing user: %v, want ErrNotFound", c.name, err)
			}
		}
	})
}
