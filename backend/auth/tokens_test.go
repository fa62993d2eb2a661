package auth

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestCheckScopes: at least one known scope, admin only for administrators, duplicates
// dropped and the rest in the order of Scopes.
func TestCheckScopes(t *testing.T) {
	cases := []struct {
		asked  []string
		admin  bool
		want   []string
		errors map[string]string
	}{
		{nil, false, nil, map[string]string{"scopes": "required"}},
		{[]string{"read"}, false, []string{"read"}, nil},
		{[]string{"manage", "read", "manage", "annotate"}, false, []string{"read", "annotate", "manage"}, nil},
		{[]string{"admin", "read"}, true, []string{"read", "admin"}, nil},
		{[]string{"read", "admin"}, false, []string{"read"}, map[string]string{"scopes[1]": "forbidden_scope"}},
		{[]string{"Read", "write", "read"}, false, []string{"read"}, map[string]string{"scopes[0]": "unknown_scope", "scopes[1]": "unknown_scope"}},
	}
	for _, c := range cases {
		got, err := checkScopes(c.asked, c.admin)
		if codes := fieldCodes(err); !maps.Equal(codes, c.errors) || !slices.Equal(got, c.want) {
			t.Errorf("checkScopes(%v, admin=%v) = %v, %v; want %v, %v", c.asked, c.admin, got, codes, c.want, c.errors)
		}
	}
}

func TestPrincipalHas(t *testing.T) {
	session := &Principal{User: &store.User{ID: "u"}, SessionID: "fam"}
	token := &Principal{User: &store.User{ID: "u"}, TokenID: "t", scopes: []Scope{ScopeRead, ScopeManage}}
	for _, sc := range Scopes {
		if !session.Has(sc) {
			t.Errorf("a session lacks %s", sc)
		}
		if want := sc == ScopeRead || sc == ScopeManage; token.Has(sc) != want {
			t.Errorf("a read+manage token: Has(%s) = %v", sc, !want)
		}
	}
	if !session.Session() || token.Session() {
		t.Fatal("Session() tells tokens and sessions apart by TokenID")
	}
}

// TestIssueAccessTokenValidation: every field's problem is reported at once, and nothing is
// created.
func TestIssueAccessTokenValidation(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		cases := []struct {
			in   NewToken
			want map[string]string
		}{
			{NewToken{Name: " ", Scopes: []string{"read"}}, map[string]string{"name": "invalid_length"}},
			{NewToken{Name: strings.Repeat("n", 101), Scopes: []string{"read"}, ExpiresInDays: -1},
				map[string]string{"name": "invalid_length", "expires_in_days": "out_of_range"}},
			{NewToken{Name: "ci", ExpiresInDays: 3651}, map[string]string{"expires_in_days": "out_of_range", "scopes": "required"}},
			{NewToken{Name: "ci", Scopes: []string{"admin"}}, map[string]string{"scopes[0]": "forbidden_scope"}},
		}
		for _, c := range cases {
			out, err := s.IssueAccessToken(ctx, ana, c.in)
			if got := fieldCodes(err); out != nil || !maps.Equal(got, c.want) {
				t.Errorf("IssueAccessToken(%+v) = %v, %v; want %v", c.in, out, got, c.want)
			}
		}
		if list, err := s.AccessTokens(ctx, ana.ID); err != nil || len(list) != 0 {
			t.Fatalf("refused tokens were stored: %v, %v", list, err)
		}
	})
}

// TestAccessTokenLifecycle: a token is shown once with its display prefix, authenticates with
// its scopes until it expires or is revoked by its owner, and records its use.
func TestAccessTokenLifecycle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		ben := addUser(t, s, "ben@example.org", true)
		issued, err := s.IssueAccessToken(ctx, ana, NewToken{Name: " ci ", Scopes: []string{"manage", "read"}, ExpiresInDays: 30})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := s.store.AccessTokenByHash(ctx, HashToken(issued.Token))
		if err != nil || !strings.HasPrefix(issued.Token, AccessTokenPrefix) || issued.Prefix != issued.Token[:14] || issued.Name != "ci" ||
			!slices.Equal(issued.Scopes, []string{"read", "manage"}) || stored.ID != issued.ID {
			t.Fatalf("issued %+v", issued)
		}
		if d := time.Until(*issued.ExpiresAt); d < 30*24*time.Hour-time.Minute || d > 30*24*time.Hour {
			t.Fatalf("expires in %v, want 30 days", d)
		}
		forever, err := s.IssueAccessToken(ctx, ben, NewToken{Name: "ops", Scopes: []string{"admin"}})
		if err != nil || forever.ExpiresAt != nil {
			t.Fatalf("a token without expiry: %+v, %v", forever, err)
		}

		p, err := s.Authenticate(ctx, issued.Token)
		if err != nil || p.User.ID != ana.ID || p.User.Email != ana.Email || p.TokenID != issued.ID || p.SessionID != "" || p.Session() {
			t.Fatalf("principal %+v, %v", p, err)
		}
		if !p.Has(ScopeRead) || !p.Has(ScopeManage) || p.Has(ScopeAnnotate) || p.Has(ScopeAdmin) {
			t.Fatalf("scopes of a read+manage token: %v", p.scopes)
		}
		list, err := s.AccessTokens(ctx, ana.ID)
		if err != nil || len(list) != 1 || list[0].LastUsedAt == nil || time.Since(*list[0].LastUsedAt) > time.Minute {
			t.Fatalf("after a use: %+v, %v", list, err)
		}

		if _, err := s.Authenticate(ctx, AccessTokenPrefix+"unknown"); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("unknown token: %v", err)
		}
		var nf *store.NotFoundError
		if err := s.RevokeAccessToken(ctx, ben.ID, issued.ID); !errors.As(err, &nf) {
			t.Fatalf("revoking another person's token: %v", err)
		}
		if err := s.RevokeAccessToken(ctx, ana.ID, issued.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, issued.Token); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("revoked token: %v", err)
		}
		if list, _ := s.AccessTokens(ctx, ana.ID); len(list) != 0 {
			t.Fatalf("revoked token still listed: %+v", list)
		}
		if err := s.RevokeAccessToken(ctx, ana.ID, issued.ID); !errors.As(err, &nf) {
			t.Fatalf("revoking twice: %v", err)
		}
		want := []string{"token.create", "token.revoke"}
		if got := audited(t, s, "token:"+issued.ID); !slices.Equal(got, want) {
			t.Fatalf("audit %v, want %v", got, want)
		}
	})
}

// TestAccessTokenExpiry: an expired token authenticates nobody.
func TestAccessTokenExpiry(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		token := NewOpaqueToken(AccessTokenPrefix)
		past := time.Now().UTC().Add(-time.Second)
		err := s.store.CreateAccessToken(ctx, &store.PersonalAccessToken{UserID: ana.ID, Name: "old", Prefix: token[:14],
			Scopes: []string{"read"}, TokenHash: HashToken(token), ExpiresAt: &past, CreatedAt: past.Add(-time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, token); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("expired token: %v", err)
		}
	})
}

// TestTouchOncePerMinute: a token's use is written at most once a minute by a replica, so
// reads stay cheap; a replica that wrote it recently writes nothing.
func TestTouchOncePerMinute(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		ana := addUser(t, s, "ana@example.org", false)
		_, pat, err := createAccessToken(ctx, s.store, ana.ID, "ci", []string{"read"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		lastUse := func() *time.Time {
			list, err := s.AccessTokens(ctx, ana.ID)
			if err != nil || len(list) != 1 {
				t.Fatalf("tokens %+v, %v", list, err)
			}
			return list[0].LastUsedAt
		}
		s.touched.Store(pat.ID, time.Now().UTC().Add(-30*time.Second))
		if err := s.touch(ctx, pat); err != nil || lastUse() != nil {
			t.Fatalf("written although this replica wrote 30 s ago: %v, %v", lastUse(), err)
		}
		s.touched.Store(pat.ID, time.Now().UTC().Add(-2*time.Minute))
		if err := s.touch(ctx, pat); err != nil || lastUse() == nil {
			t.Fatalf("not written two minutes after the last write: %v", err)
		}
		first := *lastUse()
		old := first.Add(-30 * time.Second)
		pat.LastUsedAt = &old
		s.touched.Delete(pat.ID)
		if err := s.touch(ctx, pat); err != nil || !lastUse().Equal(first) {
			t.Fatalf("written again 30 s after the stored use: %v, %v", lastUse(), err)
		}
	})
}
