package api_test

import (
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestRevocationReachesEveryReplica: two replicas share one PostgreSQL database and each
// serves tokens, users, projects and memberships from its own cache. Every revocation made on
// one replica is refused on the other at once, by the very next request, with no wait.
func TestRevocationReachesEveryReplica(t *testing.T) {
	dsn := testenv.PostgresURL(t)
	e := newEnv(t, func(tb testing.TB) *store.Store { return testenv.Open(tb, dsn) })
	other := replica(t, dsn).URL
	revocations(t, e, other)
}

// TestRevocationIsImmediate is the same on one replica of each database engine.
func TestRevocationIsImmediate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		revocations(t, e, e.srv.URL)
	})
}

// revocations changes things on e's server and checks them on the server at base, each time
// after base has served (and cached) the thing before the change.
func revocations(t *testing.T, e *env, base string) {
	lead := e.admin
	pid := lead.createProjectFrom("likert-rating")
	ana := e.newUser("ana@example.org", false)
	bob := e.newUser("bob@example.org", false)
	lead.member(pid, ana, "annotator")
	lead.member(pid, bob, "annotator")
	var tok struct{ ID, Token string }
	ana.must("POST", "/api/v1/me/tokens", map[string]any{"name": "script", "scopes": []string{"read", "annotate"}}, 201, &tok)
	script := *ana
	script.token = tok.Token
	project := "/api/v1/projects/" + pid

	// a revoked personal access token
	script.on(base).must("GET", project, nil, 200, nil)
	ana.must("DELETE", "/api/v1/me/tokens/"+tok.ID, nil, 204, nil)
	script.on(base).must("GET", project, nil, 401, nil)

	// a member whose role is taken away, then who is removed
	bob.on(base).must("POST", project+"/queue/next", map[string]string{"stage": "label"}, 204, nil)
	lead.must("PUT", project+"/members/"+bob.user.ID, map[string]any{"roles": []string{"viewer"}}, 200, nil)
	bob.on(base).must("POST", project+"/queue/next", map[string]string{"stage": "label"}, 403, nil)
	bob.on(base).must("GET", project, nil, 200, nil)
	lead.must("PUT", project+"/members/"+bob.user.ID, map[string]any{"roles": []string{}}, 200, nil)
	bob.on(base).must("GET", project, nil, 404, nil)

	// an archived project
	ana.on(base).must("GET", project, nil, 200, nil)
	lead.must("POST", project+"/archive", map[string]any{"archived": true}, 200, nil)
	if st, b := ana.on(base).do("POST", project+"/queue/next", map[string]string{"stage": "label"}); st != 409 || errorCode(t, b) != "archived" {
		t.Fatalf("claim in an archived project on the other replica: %d %s", st, b)
	}

	// a disabled account, and the sessions a password change ends
	ana.on(base).must("GET", "/api/v1/me", nil, 200, nil)
	lead.must("POST", "/api/v1/users/"+ana.user.ID+"/disable", nil, 200, nil)
	ana.on(base).must("GET", "/api/v1/me", nil, 401, nil)
	bob.on(base).must("GET", "/api/v1/me", nil, 200, nil)
	old := *bob
	bob.must("POST", "/api/v1/me/password", map[string]string{"current_password": "password-bob@example.org", "new_password": "a-new-long-password-for-bob"}, 200, nil)
	old.on(base).must("GET", "/api/v1/me", nil, 401, nil)
}

// createProjectFrom creates a project from a built-in template and returns its id.
func (c *client) createProjectFrom(template string) string {
	c.e.t.Helper()
	var p struct{ ID string }
	c.must("POST", "/api/v1/projects", map[string]any{"name": template, "template": template}, 201, &p)
	return p.ID
}
