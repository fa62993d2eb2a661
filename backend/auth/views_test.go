package auth

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// auditAfter returns the after state of the one audit event with the action on the target.
func auditAfter(t *testing.T, s *Sessions, action, target string) []byte {
	t.Helper()
	q := "SELECT after FROM audit_events WHERE action = ? AND target = ?"
	if s.store.Dialect() == store.Postgres {
		q = "SELECT after FROM audit_events WHERE action = $1 AND target = $2"
	}
	var after string
	if err := s.store.SQL().QueryRow(q, action, target).Scan(&after); err != nil {
		t.Fatalf("audit %s %s: %v", action, target, err)
	}
	return []byte(after)
}

// keysOf lists the top-level keys of a JSON object, sorted.
func keysOf(t *testing.T, b []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return slices.Sorted(maps.Keys(m))
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestViewsHoldNoSecrets: what responses and the audit trail keep of an account and a token
// are the fields the views name, never a password hash or a token hash.
func TestViewsHoldNoSecrets(t *testing.T) {
	userKeys := []string{"can_create_projects", "created_at", "disabled", "email", "id", "is_admin", "locale", "name", "updated_at"}
	tokenKeys := []string{"created_at", "expires_at", "id", "last_used_at", "name", "prefix", "scopes"}
	forEachBackend(t, func(t *testing.T, s *Sessions) {
		ctx := context.Background()
		admin := addUser(t, s, "admin@example.org", true)
		u, err := s.CreateUser(ctx, admin.ID, NewUser{Email: "ana@example.org", Name: "Ana", Password: "a long enough pass"})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := s.store.User(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		pair := login(t, s, admin.Email)
		for name, b := range map[string][]byte{
			"created": mustJSON(t, u), "audited": auditAfter(t, s, "user.create", "user:"+u.ID), "session": mustJSON(t, pair.User),
		} {
			if got := keysOf(t, b); !slices.Equal(got, userKeys) || strings.Contains(string(b), stored.PasswordHash) {
				t.Errorf("%s account: %s", name, b)
			}
		}

		issued, err := s.IssueAccessToken(ctx, admin, NewToken{Name: "ci", Scopes: []string{"read"}})
		if err != nil {
			t.Fatal(err)
		}
		list, err := s.AccessTokens(ctx, admin.ID)
		if err != nil || len(list) != 1 {
			t.Fatalf("tokens %+v, %v", list, err)
		}
		hash := HashToken(issued.Token)
		for name, b := range map[string][]byte{
			"issued": mustJSON(t, issued.TokenView), "audited": auditAfter(t, s, "token.create", "token:"+issued.ID), "listed": mustJSON(t, list[0]),
		} {
			if got := keysOf(t, b); !slices.Equal(got, tokenKeys) || strings.Contains(string(b), hash) || strings.Contains(string(b), admin.ID) {
				t.Errorf("%s token: %s", name, b)
			}
		}
		withSecret := append(slices.Clone(tokenKeys), "token")
		slices.Sort(withSecret)
		if got := keysOf(t, mustJSON(t, issued)); !slices.Equal(got, withSecret) {
			t.Errorf("a new token shows %v", got)
		}
	})
}
