package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func robojudgeLine(id, generator string) string {
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"video":"media/robot_rollout.mp4","first_frame":"media/robot_first_frame.png","instruction":"Pick up the green cube.","generator":%q},"meta":{"source_corpus":"DROID"}}`, id, generator)
}

// TestRoboJudgeShape walks label → cross-review → adjudication (always) with several people.
func TestRoboJudgeShape(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		ann := e.newUser("ann@example.org", false)
		rev := e.newUser("rev@example.org", false)
		adj := e.newUser("adj@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "RoboJudge", "template": "robojudge",
			"workflow": map[string]any{"overlap": 1, "review": "cross", "adjudication": "always"}}, 201, &p)
		lead.member(p.ID, ann, "annotator", "reviewer")
		lead.member(p.ID, rev, "reviewer")
		lead.member(p.ID, adj, "adjudicator")

		rep := lead.importNDJSON("/api/v1/projects/"+p.ID+"/items",
			robojudgeLine("rj-1", "secret-gen-A"), `{"inputs":{}}`, `{"external_id":"rj-bad",`, robojudgeLine("rj-2", "secret-gen-B"))
		if rep["imported"].(float64) != 2 || len(rep["errors"].([]any)) != 2 {
			t.Fatalf("import report %v", rep)
		}
		errs := rep["errors"].([]any)
		if errs[0].(map[string]any)["line"].(float64) != 2 || errs[1].(map[string]any)["line"].(float64) != 3 {
			t.Fatalf("bad lines not reported by number: %v", errs)
		}
		again := lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", robojudgeLine("rj-1", "secret-gen-A"))
		if again["imported"].(float64) != 0 || len(lead.items(p.ID, "")) != 2 {
			t.Fatalf("re-import duplicated: %v", again)
		}

		tpl, _ := tasks.LookupTemplate("robojudge")
		label := tpl.Schema.ExampleAnswers()
		for i := 0; i < 2; i++ {
			c := ann.next(p.ID, "label")
			if c == nil {
				t.Fatal("no label work")
			}
			for _, secret := range []string{"secret-gen", "generator", "DROID", "rj-"} {
				if strings.Contains(string(c.raw), secret) {
					t.Fatalf("the annotator's view leaks %q: %s", secret, c.raw)
				}
			}
			if st := ann.submitOK(c.Assignment.ID, map[string]any{"answers": label}); st != "review" {
				t.Fatalf("after the label the item is in %q, want review", st)
			}
		}
		if ann.next(p.ID, "label") != nil {
			t.Fatal("overlap 1 handed out a second label")
		}
		if ann.next(p.ID, "review") != nil {
			t.Fatal("the annotator was given their own label to review")
		}
		r1 := rev.next(p.ID, "review")
		if got := r1.Context["label"]; got == nil {
			t.Fatalf("review context lacks the label: %s", r1.raw)
		}
		rev.submitOK(r1.Assignment.ID, map[string]any{"verdict": "approve"})
		r2 := rev.next(p.ID, "review")
		corrected := merge(label, answers("physical_adherence", 2))
		rev.submitOK(r2.Assignment.ID, map[string]any{"verdict": "correct", "answers": corrected, "comment": "the cube passes through the gripper",
			"comments": map[string]string{"physical_adherence": "interpenetration at 0:02"}})

		if st, body := rev.do("POST", "/api/v1/projects/"+p.ID+"/queue/next", map[string]string{"stage": "adjudicate"}); st != 403 {
			t.Fatalf("a reviewer without the adjudicator role adjudicates: %d %s", st, body)
		}
		final := merge(label, answers("physical_adherence", 3))
		sawComment := 0
		for i := 0; i < 2; i++ {
			c := adj.next(p.ID, "adjudicate")
			if c == nil {
				t.Fatalf("adjudication %d: nothing to adjudicate", i)
			}
			labels, _ := c.Context["labels"].([]any)
			if len(labels) != 1 {
				t.Fatalf("adjudication context: %s", c.raw)
			}
			if strings.Contains(string(c.raw), "interpenetration at 0:02") {
				sawComment++
			}
			if strings.Contains(string(c.raw), ann.user.ID) || strings.Contains(string(c.raw), "ann@example.org") {
				t.Fatalf("annotator identity shown to the adjudicator: %s", c.raw)
			}
			status, body := adj.do("POST", "/api/v1/assignments/"+c.Assignment.ID+"/submit", map[string]any{"answers": final})
			if status != 422 || !strings.Contains(string(body), `"rationale"`) {
				t.Fatalf("adjudication without a rationale: %d %s", status, body)
			}
			adj.submitOK(c.Assignment.ID, map[string]any{"answers": final, "rationale": "PA is 3: the grasp slips once", "confidence": 4, "error_category": "physics"})
		}
		if sawComment != 1 {
			t.Fatalf("the review's per-question comment reached %d adjudications, want 1", sawComment)
		}
		items := byExternal(lead.items(p.ID, ""))
		for _, id := range []string{"rj-1", "rj-2"} {
			it := items[id]
			gt := it.GroundTruth
			if it.Stage != "done" || gt == nil || gt.Provenance["kind"] != "adjudicated" || gt.Provenance["by"] != adj.user.ID || gt.Revision != 1 {
				t.Fatalf("%s: stage %s ground truth %+v", id, it.Stage, gt)
			}
			if string(gt.Answers["physical_adherence"]) != "3" || len(it.Annotations) != 1 || len(it.Reviews) != 1 {
				t.Fatalf("%s: %+v", id, it)
			}
		}
		var audit struct{ Items []struct{ Action string } }
		lead.must("GET", "/api/v1/projects/"+p.ID+"/audit?limit=1000", nil, 200, &audit)
		seen := map[string]bool{}
		for _, a := range audit.Items {
			seen[a.Action] = true
		}
		for _, want := range []string{"items.import", "assignment.claim", "assignment.submit", "label.review", "item.stage"} {
			if !seen[want] {
				t.Errorf("no %s in the audit trail", want)
			}
		}
	})
}

// TestSubmitGuarantees covers drafts, stale versions, idempotent retries and skips.
func TestSubmitGuarantees(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		ann := e.newUser("ann@example.org", false)
		other := e.newUser("other@example.org", false)
		var p struct{ ID string }
		lead.must("POST", "/api/v1/projects", map[string]any{"name": "D3", "template": "d3omni-t2i", "workflow": map[string]any{"overlap": 2}}, 201, &p)
		lead.member(p.ID, ann, "annotator")
		lead.member(p.ID, other, "annotator")
		lead.importNDJSON("/api/v1/projects/"+p.ID+"/items", `{"external_id":"a","inputs":{"prompt":"an apple","image":"media/apple.png","generator":"g"}}`,
			`{"external_id":"b","inputs":{"prompt":"boats","image":"media/boats.png","generator":"g"}}`)
		tpl, _ := tasks.LookupTemplate("d3omni-t2i")
		full := tpl.Schema.ExampleAnswers()

		c := ann.next(p.ID, "label")
		again := ann.next(p.ID, "label")
		if again.Assignment.ID != c.Assignment.ID {
			t.Fatal("a second claim did not hand back the open assignment")
		}
		path := "/api/v1/assignments/" + c.Assignment.ID
		ann.must("PUT", path+"/draft", map[string]any{"answers": answers("composition_focus", "no"), "version": 0}, 200, nil)
		status, body := ann.do("PUT", path+"/draft", map[string]any{"answers": answers("composition_focus", "yes"), "version": 0})
		if status != 409 || errorCode(t, body) != "stale_version" {
			t.Fatalf("stale draft: %d %s", status, body)
		}
		resumed := ann.next(p.ID, "label")
		if string(resumed.Draft["composition_focus"]) != `"no"` || resumed.Assignment.Version != 1 {
			t.Fatalf("draft not restored on resume: %s", resumed.raw)
		}
		if st, _ := other.do("POST", path+"/submit", map[string]any{"answers": full}); st != 404 {
			t.Fatalf("someone else submitted the assignment: %d", st)
		}
		status, body = ann.do("POST", path+"/submit", map[string]any{"answers": answers("composition_focus", "maybe")})
		if status != 422 || !strings.Contains(string(body), `"composition_focus":{"code"`) || !strings.Contains(string(body), `"color_performance":{"code":"required"`) {
			t.Fatalf("invalid answers: %d %s", status, body)
		}
		key := []string{"Idempotency-Key", "retry-1"}
		st1, b1 := ann.do("POST", path+"/submit", map[string]any{"answers": full}, key...)
		st2, b2 := ann.do("POST", path+"/submit", map[string]any{"answers": full}, key...)
		if st1 != 200 || st2 != 200 || !strings.Contains(string(b2), `"replayed":true`) {
			t.Fatalf("idempotent retry: %d %s / %d %s", st1, b1, st2, b2)
		}
		if st, body := ann.do("POST", path+"/submit", map[string]any{"answers": full}, "Idempotency-Key", "retry-2"); st != 409 || errorCode(t, body) != "already_submitted" {
			t.Fatalf("second submit with a new key: %d %s", st, body)
		}
		revs, _ := e.store.Revisions(t.Context(), c.Assignment.ID)
		if len(revs) != 2 || revs[0].Kind != "draft" || revs[1].Kind != "submit" {
			t.Fatalf("revisions: %+v", revs)
		}
		n := 0
		for _, it := range lead.items(p.ID, "") {
			for _, a := range it.Annotations {
				if a.Status == "submitted" {
					n++
				}
			}
		}
		if n != 1 {
			t.Fatalf("%d submitted labels stored, want exactly 1", n)
		}

		s := ann.next(p.ID, "label")
		ann.must("POST", "/api/v1/assignments/"+s.Assignment.ID+"/skip", map[string]any{"reason": "image does not load"}, 204, nil)
		if ann.next(p.ID, "label") != nil {
			t.Fatal("a skipped item came back to the same person")
		}
		if o := other.next(p.ID, "label"); o == nil {
			t.Fatal("the skipped item did not return to the queue")
		}
		if st, _ := ann.do("POST", "/api/v1/assignments/"+s.Assignment.ID+"/submit", map[string]any{"answers": full}); st != 409 {
			t.Fatalf("submit after skip: %d", st)
		}
	})
}

// TestAssignmentAliases keeps the deprecated /api/v1/assignments/:aid/... paths answering as
// the project-scoped ones, with a Deprecation header, and only for the assignment's owner.
func TestAssignmentAliases(t *testing.T) {
	e := newEnv(t, testenv.SQLite)
	lead, ann, other := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("o@example.org", false)
	pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
	lead.member(pid, ann, "annotator")
	lead.member(pid, other, "annotator")
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("al-1", "g"))
	c := ann.next(pid, "label")
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/assignments/"+c.Assignment.ID+"/heartbeat", nil)
	req.Header.Set("Authorization", "Bearer "+ann.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Deprecation") != "true" {
		t.Fatalf("alias heartbeat: %d, Deprecation %q", resp.StatusCode, resp.Header.Get("Deprecation"))
	}
	if st, body := other.do("POST", "/api/v1/assignments/"+c.Assignment.ID+"/heartbeat", nil); st != 404 || errorCode(t, body) != "not_found" {
		t.Fatalf("someone else's assignment through the alias: %d %s", st, body)
	}
	if st, body := ann.do("POST", "/api/v1/projects/"+pid+"/assignments/"+c.Assignment.ID+"/heartbeat", nil); st != 200 {
		t.Fatalf("project-scoped heartbeat: %d %s", st, body)
	}
}
