package api_test

import (
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestEmptyListsAreArrays: lists of a fresh project are [] on the wire, never null, so that
// clients can iterate without guards.
func TestEmptyListsAreArrays(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		u := e.newUser("u@example.org", false)
		pid := u.createProject("empty")
		for _, path := range []string{"/stats", "/items", "/criteria", "/imports", "/members"} {
			status, body := u.do("GET", "/api/v1/projects/"+pid+path, nil)
			if status != 200 || strings.Contains(string(body), "null") {
				t.Errorf("%s: %d %s", path, status, body)
			}
		}
		if _, body := u.do("GET", "/api/v1/me/tokens", nil); string(body) != "[]" {
			t.Errorf("tokens: %s", body)
		}
	})
}
