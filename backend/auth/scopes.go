package auth

import (
	"fmt"
	"slices"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Scope is what a personal access token may do. Every route needs one scope (its group's);
// a session from a login holds them all.
type Scope string

// The scopes, from the narrowest.
const (
	// ScopeRead: every GET, and the dry-run validations that change nothing.
	ScopeRead Scope = "read"
	// ScopeAnnotate: the work queue and the actions on one's own assignments and criteria reviews.
	ScopeAnnotate Scope = "annotate"
	// ScopeManage: creating and changing projects, members, imports, uploads, invitations.
	ScopeManage Scope = "manage"
	// ScopeAdmin: the administrator's routes (users, permissions, quotas); only for administrators.
	ScopeAdmin Scope = "admin"
)

// Scopes are every scope, in order.
var Scopes = []Scope{ScopeRead, ScopeAnnotate, ScopeManage, ScopeAdmin}

// Principal is who a request acts for and what it may do.
type Principal struct {
	User *store.User
	// TokenID is the personal access token's id; empty for a session from a login.
	TokenID string
	// SessionID is the refresh-token family of a session; empty for a personal access token.
	SessionID string
	scopes    []Scope
}

// Session reports whether the principal is a person's session rather than a token.
func (p *Principal) Session() bool { return p.TokenID == "" }

// Has reports whether the principal may act in the scope.
func (p *Principal) Has(s Scope) bool { return p.Session() || slices.Contains(p.scopes, s) }

// checkScopes validates the scopes asked for a new token.
func checkScopes(asked []string, admin bool) ([]string, error) {
	fe := tasks.FieldErrors{}
	if len(asked) == 0 {
		fe.Add("scopes", "required", "a token needs at least one scope of %v", Scopes)
	}
	var out []string
	for i, a := range asked {
		path := fmt.Sprintf("scopes[%d]", i)
		switch {
		case !slices.Contains(Scopes, Scope(a)):
			fe.Add(path, "unknown_scope", "%q is not one of %v", a, Scopes)
		case Scope(a) == ScopeAdmin && !admin:
			fe.Add(path, "forbidden_scope", "only administrators can give a token the admin scope")
		case !slices.Contains(out, a):
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(Scopes, Scope(a)) - slices.Index(Scopes, Scope(b)) })
	return out, fe.Err()
}

// tokenScopes converts stored scopes.
func tokenScopes(stored []string) []Scope {
	out := make([]Scope, len(stored))
	for i, s := range stored {
		out[i] = Scope(s)
	}
	return out
}
