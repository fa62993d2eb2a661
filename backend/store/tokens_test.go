package store_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestRefreshTokens(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		u, v := f.user("u"), f.user("v")
		token := func(u *store.User, family, hash string) *store.RefreshToken {
			rt := &store.RefreshToken{UserID: u.ID, FamilyID: family, TokenHash: hash, ExpiresAt: time.Now().UTC().Add(time.Hour), CreatedAt: time.Now().UTC()}
			must(t, f.s.CreateRefreshToken(f.ctx, rt))
			return rt
		}
		rt := token(u, "fam-"+u.ID, "h1-"+u.ID)
		sibling := token(u, "fam-"+u.ID, "h2-"+u.ID)
		otherLogin := token(u, "fam2-"+u.ID, "h3-"+u.ID)
		theirs := token(v, "fam-"+v.ID, "h1-"+v.ID)
		if err := f.s.CreateRefreshToken(f.ctx, &store.RefreshToken{UserID: u.ID, FamilyID: "x", TokenHash: rt.TokenHash, ExpiresAt: time.Now().UTC(), CreatedAt: time.Now().UTC()}); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("a hash stored twice: %v, want ErrConflict", err)
		}
		if ok, err := f.s.UseRefreshToken(f.ctx, rt.ID); err != nil || !ok {
			t.Fatalf("first use: %v %v", ok, err)
		}
		if ok, _ := f.s.UseRefreshToken(f.ctx, rt.ID); ok {
			t.Fatal("a token was used twice")
		}
		must(t, f.s.RevokeRefreshFamily(f.ctx, rt.FamilyID))
		revoked := func(rt *store.RefreshToken) bool {
			got, err := f.s.RefreshTokenByHash(f.ctx, rt.TokenHash)
			must(t, err)
			return got.RevokedAt != nil
		}
		if !revoked(rt) || !revoked(sibling) || revoked(otherLogin) || revoked(theirs) {
			t.Fatal("revoking a family revoked other tokens or missed its own")
		}
		if ok, _ := f.s.UseRefreshToken(f.ctx, sibling.ID); ok {
			t.Fatal("a revoked token was used")
		}
		must(t, f.s.RevokeUserRefreshTokens(f.ctx, u.ID))
		if !revoked(otherLogin) || revoked(theirs) {
			t.Fatal("ending a user's sessions missed theirs or ended another's")
		}
		if _, err := f.s.RefreshTokenByHash(f.ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing token: %v", err)
		}
	})
}

func TestAccessTokens(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		u, v := f.user("u"), f.user("v")
		token := func(u *store.User, name string) *store.PersonalAccessToken {
			pat := &store.PersonalAccessToken{UserID: u.ID, Name: name, Prefix: "arb_", Scopes: []string{"read", "annotate"},
				TokenHash: "hash-" + name + u.ID, CreatedAt: time.Now().UTC()}
			must(t, f.s.CreateAccessToken(f.ctx, pat))
			return pat
		}
		first, second, theirs := token(u, "first"), token(u, "second"), token(v, "theirs")
		got, err := f.s.AccessTokenByHash(f.ctx, first.TokenHash)
		if err != nil || got.ID != first.ID || !slices.Equal(got.Scopes, []string{"read", "annotate"}) || got.LastUsedAt != nil {
			t.Fatalf("token by hash %+v, %v", got, err)
		}

		at := time.Now().UTC().Truncate(time.Second)
		lastUsed := func() time.Time {
			got, err := f.s.AccessTokenByHash(f.ctx, first.TokenHash)
			must(t, err)
			return got.LastUsedAt.UTC()
		}
		must(t, f.s.TouchAccessToken(f.ctx, first.ID, at))
		equal(t, "first use", lastUsed(), at)
		must(t, f.s.TouchAccessToken(f.ctx, first.ID, at.Add(30*time.Second)))
		equal(t, "a use within the minute", lastUsed(), at)
		must(t, f.s.TouchAccessToken(f.ctx, first.ID, at.Add(2*time.Minute)))
		equal(t, "a use after the minute", lastUsed(), at.Add(2*time.Minute))

		if err := f.s.RevokeAccessToken(f.ctx, v.ID, first.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("revoking another's token: %v, want ErrNotFound", err)
		}
		must(t, f.s.RevokeAccessToken(f.ctx, u.ID, first.ID))
		if err := f.s.RevokeAccessToken(f.ctx, u.ID, first.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("revoking twice: %v, want ErrNotFound", err)
		}
		if _, err := f.s.AccessTokenByHash(f.ctx, first.TokenHash); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a revoked token by hash: %v, want ErrNotFound", err)
		}
		live, err := f.s.AccessTokens(f.ctx, u.ID)
		must(t, err)
		if len(live) != 1 || live[0].ID != second.ID {
			t.Fatalf("live tokens %+v", live)
		}
		must(t, f.s.RevokeUserAccessTokens(f.ctx, u.ID))
		if live, _ := f.s.AccessTokens(f.ctx, u.ID); len(live) != 0 {
			t.Fatalf("tokens left after revoking all: %+v", live)
		}
		if live, _ := f.s.AccessTokens(f.ctx, v.ID); len(live) != 1 || live[0].ID != theirs.ID {
			t.Fatalf("another user's tokens: %+v", live)
		}
	})
}

func TestPasswordResets(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		u, admin := f.user("u"), f.user("admin")
		reset := func(hash string, expires time.Duration) {
			must(t, f.s.CreatePasswordReset(f.ctx, &store.PasswordReset{UserID: u.ID, TokenHash: hash + u.ID, CreatedBy: admin.ID,
				ExpiresAt: time.Now().UTC().Add(expires), CreatedAt: time.Now().UTC()}))
		}
		reset("old", time.Hour)
		reset("new", time.Hour)
		if _, err := f.s.UsePasswordReset(f.ctx, "old"+u.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("an older link after a newer one: %v, want ErrNotFound", err)
		}
		r, err := f.s.UsePasswordReset(f.ctx, "new"+u.ID)
		if err != nil || r.UserID != u.ID || r.CreatedBy != admin.ID {
			t.Fatalf("use: %+v, %v", r, err)
		}
		if _, err := f.s.UsePasswordReset(f.ctx, "new"+u.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a link used twice: %v, want ErrNotFound", err)
		}
		reset("expired", -time.Minute)
		if _, err := f.s.UsePasswordReset(f.ctx, "expired"+u.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("an expired link: %v, want ErrNotFound", err)
		}
	})
}

func TestLoginThrottle(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		acct, ip, other := unique("acct"), unique("ip"), unique("acct")
		for i := 1; i <= 3; i++ {
			counts, err := f.s.RecordLoginFailure(f.ctx, time.Minute, acct, ip)
			if err != nil || counts[0] != i || counts[1] != i {
				t.Fatalf("failure %d counted %v (%v)", i, counts, err)
			}
		}
		if counts, _ := f.s.RecordLoginFailure(f.ctx, time.Minute, ip, other); counts[0] != 4 || counts[1] != 1 {
			t.Fatalf("keys counted together: %v", counts)
		}
		if fl, _ := f.s.LoginFailures(f.ctx, acct, time.Minute); fl.Count != 3 || time.Since(fl.Last) > time.Minute {
			t.Fatalf("failures = %+v, want 3 just now", fl)
		}
		if fl, _ := f.s.LoginFailures(f.ctx, acct, 0); fl.Count != 0 {
			t.Fatalf("a quiet key still counts %d", fl.Count)
		}
		if fl, err := f.s.LoginFailures(f.ctx, unique("never"), time.Minute); err != nil || fl.Count != 0 || !fl.Last.IsZero() {
			t.Fatalf("a key without failures: %+v, %v", fl, err)
		}
		if counts, _ := f.s.RecordLoginFailure(f.ctx, 0, acct); counts[0] != 1 {
			t.Fatalf("a failure after a quiet window counts %d, want 1", counts[0])
		}
		must(t, f.s.ClearLoginFailures(f.ctx, acct))
		if fl, _ := f.s.LoginFailures(f.ctx, acct, time.Minute); fl.Count != 0 {
			t.Fatalf("cleared failures = %d", fl.Count)
		}
		if fl, _ := f.s.LoginFailures(f.ctx, ip, time.Minute); fl.Count != 4 {
			t.Fatalf("clearing one key cleared another: %d", fl.Count)
		}
	})
}
