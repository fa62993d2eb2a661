package api_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// TestSetupEndpoints: the checks a lead's setup form relies on, archiving, deletion with a
// confirmation, the schema versions with their use, and the feasibility warnings.
func TestSetupEndpoints(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		ann := e.newUser("ann@example.org", false)

		var ok struct {
			Valid    bool
			Workflow struct{ Overlap int }
		}
		lead.must("POST", "/api/v1/schemas/validate", map[string]any{"template": "robojudge", "workflow": map[string]any{"overlap": 2}}, 200, &ok)
		if !ok.Valid || ok.Workflow.Overlap != 2 {
			t.Fatalf("valid setup: %+v", ok)
		}
		if n := len(lead.projects("")); n != 0 {
			t.Fatalf("validation created %d projects", n)
		}

		pid := robojudgeProject(t, lead, map[string]any{"overlap": 2, "review": "cross", "adjudication": "always"})
		var f struct {
			Warnings []struct {
				Code         string
				Needed, Have int
			}
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/feasibility", nil, 200, &f)
		if codes := warningCodes(f.Warnings); codes != "annotators,reviewers,adjudicators" {
			t.Fatalf("warnings for a lead alone: %s %+v", codes, f.Warnings)
		}
		lead.member(pid, ann, "annotator", "reviewer", "adjudicator")
		lead.must("GET", "/api/v1/projects/"+pid+"/feasibility", nil, 200, &f)
		if f.Warnings[0].Code != "annotators" || f.Warnings[0].Needed != 2 || f.Warnings[0].Have != 1 {
			t.Fatalf("one annotator for overlap 2: %+v", f.Warnings)
		}

		var versions []struct{ Version, Assignments int }
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("s-1", "g"))
		ann.next(pid, "label")
		lead.must("GET", "/api/v1/projects/"+pid+"/schemas", nil, 200, &versions)
		if len(versions) != 1 || versions[0].Version != 1 || versions[0].Assignments != 1 {
			t.Fatalf("schema versions: %+v", versions)
		}

		lead.must("POST", "/api/v1/projects/"+pid+"/archive", map[string]any{"archived": true}, 200, nil)
		if len(lead.projects("")) != 0 || len(lead.projects("?archived=true")) != 1 {
			t.Fatal("an archived project stayed in the list")
		}
		if st, body := ann.do("POST", "/api/v1/projects/"+pid+"/queue/next", map[string]string{"stage": "label"}); st != 409 || errorCode(t, body) != "archived" {
			t.Fatalf("work from an archived project: %d %s", st, body)
		}
		lead.must("POST", "/api/v1/projects/"+pid+"/archive", map[string]any{"archived": false}, 200, nil)

		if st, body := ann.do("DELETE", "/api/v1/projects/"+pid, map[string]any{"confirm": "rj"}); st != 403 {
			t.Fatalf("an annotator deleted the project: %d %s", st, body)
		}
		if st, body := lead.do("DELETE", "/api/v1/projects/"+pid, map[string]any{"confirm": "wrong"}); st != 422 || !contains(body, `"confirm"`) {
			t.Fatalf("deletion without the name: %d %s", st, body)
		}
		lead.must("DELETE", "/api/v1/projects/"+pid, map[string]any{"confirm": "rj"}, 204, nil)
		if st, _ := lead.do("GET", "/api/v1/projects/"+pid, nil); st != 404 {
			t.Fatalf("a deleted project answers %d", st)
		}
		var n int
		if err := e.store.SQL().QueryRowContext(context.Background(), "SELECT COUNT(*) FROM audit_events WHERE action = 'project.delete'").Scan(&n); err != nil || n != 1 {
			t.Fatalf("deletion audit events: %d %v", n, err)
		}
	})
}

func (c *client) projects(query string) []struct{ ID string } {
	var ps []struct{ ID string }
	c.must("GET", "/api/v1/projects"+query, nil, 200, &ps)
	return ps
}

func warningCodes(ws []struct {
	Code         string
	Needed, Have int
}) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += ","
		}
		out += w.Code
	}
	return out
}

// TestSetupCheckVerdicts: a setup that breaks a rule (an invalid policy or schema, a schema
// that is not shaped like one) is a 200 verdict with its problems in field order, so that a
// form checking as the lead types never sees a failed request; a malformed body is still 400.
func TestSetupCheckVerdicts(t *testing.T) {
	likert := func(q map[string]any) map[string]any {
		return map[string]any{"inputs": []any{map[string]any{"name": "prompt", "type": "text"}},
			"questions": []any{q}}
	}
	good := map[string]any{"key": "q", "kind": "likert", "label": "How good?", "min": 1, "max": 5}
	tests := []struct {
		name   string
		body   any
		status int
		valid  bool
		fields []string // the problems' fields, in order
		codes  []string
	}{
		{"valid schema", map[string]any{"schema": likert(good)}, 200, true, nil, nil},
		{"invalid policy", map[string]any{"template": "robojudge", "workflow": map[string]any{"overlap": 99}}, 200, false,
			[]string{"workflow.overlap"}, []string{"out_of_range"}},
		{"invalid schema", map[string]any{"schema": likert(map[string]any{"key": "q", "kind": "likert", "label": "How good?", "min": 5, "max": 1})}, 200, false,
			[]string{"schema.questions[0].max"}, []string{"out_of_range"}},
		{"template and schema", map[string]any{"template": "robojudge", "schema": likert(good)}, 200, false,
			[]string{"template"}, []string{"conflict"}},
		{"unknown key in the schema", map[string]any{"schema": map[string]any{"inputs": []any{}, "questoins": []any{}}}, 200, false,
			[]string{"schema"}, []string{"unknown_field"}},
		{"list where an object belongs", map[string]any{"schema": map[string]any{"inputs": []any{}, "questions": "q"}}, 200, false,
			[]string{"schema.questions"}, []string{"invalid_type"}},
		{"forms of the wrong shape", map[string]any{"schema": likert(good), "forms": []any{}}, 200, false,
			[]string{"forms"}, []string{"invalid_type"}},
		{"unknown field in the body", map[string]any{"template": "robojudge", "extra": 1}, 400, false, nil, nil},
		{"not JSON", "{", 400, false, nil, nil},
	}
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		for _, tc := range tests {
			status, body := lead.do("POST", "/api/v1/schemas/validate", tc.body)
			if status != tc.status {
				t.Fatalf("%s: status %d, want %d: %s", tc.name, status, tc.status, body)
			}
			if status != 200 {
				if errorCode(t, body) != "invalid_json" {
					t.Fatalf("%s: %s", tc.name, body)
				}
				continue
			}
			var got struct {
				Valid  bool
				Errors []struct{ Field, Code, Message string }
			}
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			var fields, codes []string
			for _, p := range got.Errors {
				fields, codes = append(fields, p.Field), append(codes, p.Code)
				if p.Message == "" {
					t.Fatalf("%s: a problem without a message: %s", tc.name, body)
				}
			}
			if got.Valid != tc.valid || !slices.Equal(fields, tc.fields) || !slices.Equal(codes, tc.codes) {
				t.Fatalf("%s: %s", tc.name, body)
			}
		}
		if n := len(lead.projects("")); n != 0 {
			t.Fatalf("validation created %d projects", n)
		}
	})
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }

// TestStuckWork: work nobody among the members can be given is listed with the reason, and
// adding someone with the role frees it.
func TestStuckWork(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, both, rev := e.newUser("lead@example.org", false), e.newUser("both@example.org", false), e.newUser("rev@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "review": "cross"})
		lead.member(pid, both, "annotator", "reviewer")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("st-1", "g"), robojudgeLine("st-2", "g"))
		var stuck struct {
			Stages []struct {
				Stage, Reason string
				Count         int
				IDs           []string
			}
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck", nil, 200, &stuck)
		if len(stuck.Stages) != 0 {
			t.Fatalf("stuck before any work: %+v", stuck)
		}
		c := both.next(pid, "label")
		both.submitOK(c.Assignment.ID, map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()})
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck", nil, 200, &stuck)
		if len(stuck.Stages) != 1 || stuck.Stages[0].Stage != "review" || stuck.Stages[0].Count != 1 || !strings.Contains(stuck.Stages[0].Reason, "has not worked on the item in another stage") {
			t.Fatalf("the label only its author could review: %+v", stuck)
		}
		lead.member(pid, rev, "reviewer")
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck", nil, 200, &stuck)
		if len(stuck.Stages) != 0 {
			t.Fatalf("still stuck with a reviewer: %+v", stuck)
		}
	})
}

// TestCreatorRoles: the creation answer gives the creator the roles every later read gives
// (an administrator holds every role; anyone else is the lead), so a client may trust it.
func TestCreatorRoles(t *testing.T) {
	type rolesOf struct {
		ID      string
		MyRoles []string `json:"my_roles"`
	}
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		for _, tc := range []struct {
			who   *client
			roles []string
		}{
			{e.admin, []string{"lead", "annotator", "reviewer", "adjudicator", "viewer"}},
			{e.newUser("lead@example.org", false), []string{"lead"}},
		} {
			var created, got rolesOf
			tc.who.must("POST", "/api/v1/projects", map[string]any{"name": "p " + tc.who.user.Email, "template": "robojudge"}, 201, &created)
			tc.who.must("GET", "/api/v1/projects/"+created.ID, nil, 200, &got)
			var listed []rolesOf
			tc.who.must("GET", "/api/v1/projects", nil, 200, &listed)
			i := slices.IndexFunc(listed, func(p rolesOf) bool { return p.ID == created.ID })
			if !slices.Equal(created.MyRoles, tc.roles) || !slices.Equal(got.MyRoles, tc.roles) || i < 0 || !slices.Equal(listed[i].MyRoles, tc.roles) {
				t.Fatalf("%s: created %v, read %v, listed %+v; want %v", tc.who.user.Email, created.MyRoles, got.MyRoles, listed, tc.roles)
			}
		}
	})
}
