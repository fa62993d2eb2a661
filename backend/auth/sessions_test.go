package auth

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// testPassword is every test account's password; its hash is made once.
const testPassword = "correct horse battery staple"

var testPasswordHash = sync.OnceValue(func() string {
	h, err := HashPassword(testPassword)
	if err != nil {
		panic(err)
	}
	return h
})

// testLimits let a few failures through, then slow them down by minutes, so that the clock
// of a test decides whether a try waits.
var testLimits = Limits{Window: time.Hour, FreeFailures: 2, BaseDelay: time.Minute, MaxDelay: 4 * time.Minute, PerAddress: 3}

// forEachBackend runs f with a session service on each database engine.
func forEachBackend(t *testing.T, f func(t *testing.T, s *Sessions)) {
	for _, b := range testenv.Backends() {
		t.Run(b.Name, func(t *testing.T) {
			f(t, NewSessions(b.Open(t), NewIssuer(testJWTKey, time.Minute), time.Hour, testLimits))
		})
	}
}

// addUser stores an account whose password is testPassword.
func addUser(t *testing.T, s *Sessions, email string, admin bool) *store.User {
	t.Helper()
	u := &store.User{Email: email, Name: strings.Split(email, "@")[0], PasswordHash: testPasswordHash(), IsAdmin: admin}
	if err := s.store.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

// login logs in with testPassword and fails the test otherwise.
func login(t *testing.T, s *Sessions, email string) *Pair {
	t.Helper()
	p, err := s.Login(context.Background(), email, testPassword, "10.0.0.1")
	if err != nil {
		t.Fatalf("login %s: %v", email, err)
	}
	return p
}

func TestLogin(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		p := login(t, s, "  ANA@Example.org ")
		if p.User.ID != ana.ID || p.TokenType != "Bearer" || p.ExpiresIn != 60 || !strings.HasPrefix(p.RefreshToken, RefreshTokenPrefix) {
			t.Fatalf("pair %+v", p)
		}
		sub, err := s.issuer.Verify(p.AccessToken)
		if err != nil || sub.UserID != ana.ID || sub.SessionID == "" || sub.Generation != ana.SessionGeneration {
			t.Fatalf("access token speaks for %+v (%v)", sub, err)
		}
		if again := login(t, s, "ana@example.org"); again.RefreshToken == p.RefreshToken {
			t.Fatal("two logins share a refresh token")
		} else if sub2, _ := s.issuer.Verify(again.AccessToken); sub2.SessionID == sub.SessionID {
			t.Fatal("two logins share a token family")
		}

		disabled := addUser(t, s, "dan@example.org", false)
		if err := s.store.SetDisabled(ctx, disabled.ID, true); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ email, password string }{
			{"ana@example.org", "correct horse battery stapler"},
			{"nobody@example.org", testPassword},
			{"dan@example.org", testPassword},
		} {
			_, err := s.Login(ctx, c.email, c.password, "10.0.0.9")
			var fe *FailedLoginError
			if !errors.Is(err, ErrBadCredentials) || !errors.As(err, &fe) || fe.AccountFailures != 1 || err.Error() != ErrBadCredentials.Error() {
				t.Errorf("login %s / %q: %v, want the first failure of ErrBadCredentials", c.email, c.password, err)
			}
		}
	})
}

// TestRefreshRotation: a refresh token works once and hands out the next one of its family;
// presenting a used one revokes the family, and leaves the person's other logins alone.
func TestRefreshRotation(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		first := login(t, s, ana.Email)
		other := login(t, s, ana.Email)

		second, err := s.Refresh(ctx, first.RefreshToken)
		if err != nil {
			t.Fatal(err)
		}
		if second.RefreshToken == first.RefreshToken || second.User.ID != ana.ID {
			t.Fatalf("refresh gave %+v", second)
		}
		a, _ := s.issuer.Verify(first.AccessToken)
		b, _ := s.issuer.Verify(second.AccessToken)
		if a.SessionID != b.SessionID {
			t.Fatalf("refresh left the family: %s then %s", a.SessionID, b.SessionID)
		}

		if _, err := s.Refresh(ctx, first.RefreshToken); !errors.Is(err, ErrRefreshReused) {
			t.Fatalf("reused refresh token: %v", err)
		}
		if _, err := s.Refresh(ctx, second.RefreshToken); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("the family's newest token after a reuse: %v", err)
		}
		if _, err := s.Refresh(ctx, other.RefreshToken); err != nil {
			t.Fatalf("another login of the same person: %v", err)
		}
		if _, err := s.Refresh(ctx, "arb_rt_unknown"); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("unknown token: %v", err)
		}
	})
}

// TestRefreshRefused: an expired refresh token, or one of a disabled account, gives nothing.
func TestRefreshRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		live := login(t, s, ana.Email)
		s.refreshTTL = -time.Second
		expired := login(t, s, ana.Email)
		if _, err := s.Refresh(ctx, expired.RefreshToken); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("expired refresh token: %v", err)
		}
		if err := s.store.SetDisabled(ctx, ana.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Refresh(ctx, live.RefreshToken); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("refresh of a disabled account: %v", err)
		}
		if err := s.store.SetDisabled(ctx, ana.ID, false); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Refresh(ctx, live.RefreshToken); err != nil {
			t.Fatalf("the refused try must not have used the token: %v", err)
		}
	})
}

// TestLogout ends the session's family only; a token's principal has no session to end.
func TestLogout(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		mine, other := login(t, s, ana.Email), login(t, s, ana.Email)
		p, err := s.Authenticate(ctx, mine.AccessToken)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Logout(ctx, p); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Refresh(ctx, mine.RefreshToken); !errors.Is(err, ErrRefreshInvalid) {
			t.Fatalf("refresh after logout: %v", err)
		}
		if _, err := s.Refresh(ctx, other.RefreshToken); err != nil {
			t.Fatalf("another session after logout: %v", err)
		}
		if err := s.Logout(ctx, &Principal{User: ana, TokenID: "pat"}); err != nil {
			t.Fatalf("logout of a token: %v", err)
		}
	})
}

// TestAuthenticateSession: an access token resolves to its user with every scope, until the
// user's session generation moves on or the account is disabled.
func TestAuthenticateSession(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", true)
		pair := login(t, s, ana.Email)
		p, err := s.Authenticate(ctx, pair.AccessToken)
		if err != nil || p.User.ID != ana.ID || p.User.Email != ana.Email || !p.User.IsAdmin || !p.Session() || p.SessionID == "" {
			t.Fatalf("principal %+v, %v", p, err)
		}
		for _, sc := range Scopes {
			if !p.Has(sc) {
				t.Errorf("a session lacks scope %s", sc)
			}
		}

		if _, err := s.Authenticate(ctx, "not a token"); !errors.Is(err, ErrTokenInvalid) {
			t.Fatalf("garbage bearer: %v", err)
		}
		late := NewIssuer(testJWTKey, time.Minute)
		late.now = func() time.Time { return time.Now().Add(-2 * time.Minute) }
		old, _ := late.Sign(Subject{UserID: ana.ID, Generation: ana.SessionGeneration})
		if _, err := s.Authenticate(ctx, old); !errors.Is(err, ErrTokenExpired) {
			t.Fatalf("expired access token: %v", err)
		}
		ghost, _ := s.issuer.Sign(Subject{UserID: "no-such-user"})
		if _, err := s.Authenticate(ctx, ghost); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("token of a missing user: %v", err)
		}

		if err := s.store.SetPassword(ctx, ana.ID, testPasswordHash()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, pair.AccessToken); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("token of an older session generation: %v", err)
		}
		fresh := login(t, s, ana.Email)
		if _, err := s.Authenticate(ctx, fresh.AccessToken); err != nil {
			t.Fatalf("token of the new generation: %v", err)
		}
		if err := s.store.SetDisabled(ctx, ana.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, fresh.AccessToken); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("token of a disabled account: %v", err)
		}
	})
}

// TestStoreDownIsNoVerdict: when the store fails, logins, refreshes and bearer checks answer
// ErrUnavailable, never a verdict on the credentials that would end a client's session.
func TestStoreDownIsNoVerdict(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		pair := login(t, s, ana.Email)
		issued, err := s.IssueAccessToken(ctx, ana, NewToken{Name: "ci", Scopes: []string{"read"}})
		if err != nil {
			t.Fatal(err)
		}
		s.store.UseCache(0)
		s.store.Close()
		verdicts := []error{ErrBadCredentials, ErrRefreshInvalid, ErrRefreshReused, ErrUnauthenticated, ErrTokenInvalid}
		check := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, ErrUnavailable) {
				t.Errorf("%s with the store down: %v, want ErrUnavailable", what, err)
			}
			for _, v := range verdicts {
				if errors.Is(err, v) {
					t.Errorf("%s with the store down gave the verdict %v", what, v)
				}
			}
		}
		_, err = s.Login(ctx, ana.Email, testPassword, "10.0.0.1")
		check("login", err)
		_, err = s.Refresh(ctx, pair.RefreshToken)
		check("refresh", err)
		_, err = s.Authenticate(ctx, pair.AccessToken)
		check("access token", err)
		_, err = s.Authenticate(ctx, issued.Token)
		check("personal access token", err)
		check("logout", s.Logout(ctx, &Principal{SessionID: "fam"}))
	})
}

// TestHashingBusyIsNoFailure: a login that finds no room to hash its password is ErrBusy, and
// is not counted against the account: the server's load must not lock anyone out.
func TestHashingBusyIsNoFailure(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		for range cap(s.hashing.slots) {
			s.hashing.slots <- struct{}{}
		}
		for _, email := range []string{ana.Email, "nobody@example.org"} {
			if _, err := s.Login(ctx, email, testPassword, "10.0.0.1"); !errors.Is(err, ErrBusy) {
				t.Fatalf("login of %s with hashing full: %v, want ErrBusy", email, err)
			}
			if f, _ := s.store.LoginFailures(ctx, "acct:"+email, time.Hour); f.Count != 0 {
				t.Fatalf("a busy refusal counted %d failures", f.Count)
			}
		}
		<-s.hashing.slots
		login(t, s, ana.Email)
	})
}
