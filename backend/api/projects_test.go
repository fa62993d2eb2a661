package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func TestUsersAndProjects(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		ann := e.newUser("ann@example.org", false)
		outsider := e.newUser("out@example.org", false)
		pid := lead.createProject("RoboJudge pilot")
		newUser := map[string]any{"email": "new@example.org", "name": "New", "password": "long-enough-pw"}

		runScenarios(t, e, []scenario{
			{name: "non-admin creates user", as: lead, method: "POST", path: "/api/v1/users", body: newUser, status: 403, code: "forbidden"},
			{name: "non-admin lists users", as: lead, method: "GET", path: "/api/v1/users", status: 403, code: "forbidden"},
			{name: "admin creates user", as: e.admin, method: "POST", path: "/api/v1/users", body: newUser, status: 201, contains: []string{`"email":"new@example.org"`}, notContain: []string{"password"}},
			{name: "duplicate email", as: e.admin, method: "POST", path: "/api/v1/users", body: newUser, status: 409, code: "conflict"},
			{name: "invalid user", as: e.admin, method: "POST", path: "/api/v1/users", body: map[string]any{"email": "nope", "name": "", "password": "short"}, status: 422, code: "validation_failed",
				contains: []string{`"email":{"code":"invalid_email"`, `"name":`, `"password":{"code":"too_short"`}},
			{name: "admin lists users", as: e.admin, method: "GET", path: "/api/v1/users", status: 200, contains: []string{"lead@example.org", "new@example.org"}, notContain: []string{"argon2"}},
			{name: "project name required", as: lead, method: "POST", path: "/api/v1/projects", body: map[string]any{"name": " "}, status: 422, code: "validation_failed"},
			{name: "lead sees the project", as: lead, method: "GET", path: "/api/v1/projects/" + pid, status: 200, contains: []string{`"my_roles":["lead"]`}},
			{name: "outsider gets 404", as: outsider, method: "GET", path: "/api/v1/projects/" + pid, status: 404, code: "not_found"},
			{name: "missing project is the same 404", as: outsider, method: "GET", path: "/api/v1/projects/does-not-exist", status: 404, code: "not_found"},
			{name: "unknown role", as: lead, method: "PUT", path: "/api/v1/projects/" + pid + "/members/" + ann.user.ID, body: map[string]any{"roles": []string{"annotator", "boss"}}, status: 422, code: "validation_failed", contains: []string{`"roles[1]"`}},
			{name: "roles required", as: lead, method: "PUT", path: "/api/v1/projects/" + pid + "/members/" + ann.user.ID, body: map[string]any{}, status: 422, code: "validation_failed"},
			{name: "a non-member by id", as: lead, method: "PUT", path: "/api/v1/projects/" + pid + "/members/" + ann.user.ID, body: map[string]any{"roles": []string{"annotator"}}, status: 422, code: "validation_failed", contains: []string{`"uid":{"code":"invite_by_email"`}},
			{name: "lead invites annotator by email", as: lead, method: "PUT", path: "/api/v1/projects/" + pid + "/members/ann@example.org", body: map[string]any{"roles": []string{"annotator", "annotator"}}, status: 200, contains: []string{`"status":"invited"`, `"roles":["annotator"]`}},
			{name: "not a member before accepting", as: ann, method: "GET", path: "/api/v1/projects/" + pid, status: 404, code: "not_found"},
		})
		ann.accept(pid)
		runScenarios(t, e, []scenario{
			{name: "annotator sees the project", as: ann, method: "GET", path: "/api/v1/projects/" + pid, status: 200, contains: []string{`"my_roles":["annotator"]`}},
			{name: "annotator cannot set members", as: ann, method: "PUT", path: "/api/v1/projects/" + pid + "/members/" + ann.user.ID, body: map[string]any{"roles": []string{"lead"}}, status: 403, code: "forbidden"},
			{name: "annotator cannot read the audit", as: ann, method: "GET", path: "/api/v1/projects/" + pid + "/audit", status: 403, code: "forbidden"},
			{name: "lead reads the audit", as: lead, method: "GET", path: "/api/v1/projects/" + pid + "/audit", status: 200, contains: []string{`"action":"member.set"`, `"action":"project.create"`}},
			{name: "admin sees every project", as: e.admin, method: "GET", path: "/api/v1/projects/" + pid, status: 200},
		})

		t.Run("project list is scoped", func(t *testing.T) {
			outsider.createProject("someone else's")
			var mine, all []struct{ ID, Name string }
			ann.must("GET", "/api/v1/projects", nil, 200, &mine)
			e.admin.must("GET", "/api/v1/projects", nil, 200, &all)
			if len(mine) != 1 || mine[0].ID != pid || len(all) != 2 {
				t.Fatalf("annotator sees %v, admin sees %v", mine, all)
			}
		})
		t.Run("removing a member", func(t *testing.T) {
			lead.must("PUT", "/api/v1/projects/"+pid+"/members/"+ann.user.ID, map[string]any{"roles": []string{}}, 200, nil)
			if st, _ := ann.do("GET", "/api/v1/projects/"+pid, nil); st != 404 {
				t.Fatalf("removed member still sees the project: %d", st)
			}
		})
	})
}

// TestNoCrossProjectAccess walks every route under /api/v1/projects/:pid and /api/v1/assets/:aid
// and proves that a lead of project A gets 404 for project B's resources, with every method.
func TestNoCrossProjectAccess(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		leadA := e.newUser("a@example.org", false)
		leadB := e.newUser("b@example.org", false)
		leadA.createProject("A")
		var proj struct{ ID string }
		leadB.must("POST", "/api/v1/projects", map[string]any{"name": "B", "template": "likert-rating"}, 201, &proj)
		pidB := proj.ID
		assetB := uploadAsset(t, leadB, pidB, "b.png", pngBytes)
		tpl, _ := tasks.LookupTemplate("likert-rating")
		line, _ := json.Marshal(tpl.Samples[0])
		leadB.importNDJSON("/api/v1/projects/"+pidB+"/items", string(line))
		leadB.member(pidB, leadB, "lead", "annotator")
		claimB := leadB.next(pidB, "label")
		routes := routeList(t, e)
		checked := 0
		for _, r := range routes {
			var path string
			switch {
			case strings.HasPrefix(r.path, "/api/v1/projects/:pid"):
				path = strings.Replace(r.path, ":pid", pidB, 1)
			case strings.HasPrefix(r.path, "/api/v1/assets/:aid"):
				path = strings.Replace(r.path, ":aid", assetB, 1)
			case strings.HasPrefix(r.path, "/api/v1/assignments/:aid"):
				path = strings.Replace(r.path, ":aid", claimB.Assignment.ID, 1)
			default:
				continue
			}
			path = fillParams(path)
			status, body := leadA.do(r.method, path, map[string]any{})
			if status != 404 || errorCode(t, body) != "not_found" {
				t.Errorf("%s %s as a lead of another project: %d %s", r.method, r.path, status, body)
			}
			checked++
		}
		if checked < 20 {
			t.Fatalf("only %d project routes checked; the route walk is broken", checked)
		}
		var events struct{ Items []json.RawMessage }
		leadB.must("GET", "/api/v1/projects/"+pidB+"/audit", nil, 200, &events)
		if n, _ := e.store.AuditEvents(context.Background(), pidB, 100); len(n) != len(events.Items) {
			t.Fatalf("audit listing differs from the store")
		}
	})
}

type route struct{ method, path string }

// routeList returns the server's routes; the server is rebuilt from the same deps.
func routeList(t *testing.T, e *env) []route {
	var out []route
	for _, r := range e.routes {
		out = append(out, route{r.Method, r.Path})
	}
	return out
}

// fillParams replaces remaining :params and *wildcards with placeholder values.
func fillParams(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "*") {
			parts[i] = "x"
		}
	}
	return strings.Join(parts, "/")
}
