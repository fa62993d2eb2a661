package api_test

import (
	"context"
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

		status, body := lead.do("POST", "/api/v1/schemas/validate", map[string]any{"template": "robojudge", "workflow": map[string]any{"overlap": 99}})
		if status != 422 || !contains(body, `"workflow.overlap"`) {
			t.Fatalf("invalid policy: %d %s", status, body)
		}
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
		if len(stuck.Stages) != 1 || stuck.Stages[0].Stage != "review" || stuck.Stages[0].Count != 1 || !strings.Contains(stuck.Stages[0].Reason, "did not label") {
			t.Fatalf("the label only its author could review: %+v", stuck)
		}
		lead.member(pid, rev, "reviewer")
		lead.must("GET", "/api/v1/projects/"+pid+"/stuck", nil, 200, &stuck)
		if len(stuck.Stages) != 0 {
			t.Fatalf("still stuck with a reviewer: %+v", stuck)
		}
	})
}
