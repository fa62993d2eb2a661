package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

func robojudgeProject(t *testing.T, lead *client, workflow map[string]any) string {
	var p struct{ ID string }
	lead.must("POST", "/api/v1/projects", map[string]any{"name": "rj", "template": "robojudge", "workflow": workflow}, 201, &p)
	return p.ID
}

// TestFlags: a flagged item leaves the queue and waits for the lead, who returns or drops it.
func TestFlags(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann, other := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("o@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
		lead.member(pid, ann, "annotator")
		lead.member(pid, other, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("f-1", "g"), robojudgeLine("f-2", "g"))
		c := ann.next(pid, "label")
		path := "/api/v1/projects/" + pid + "/assignments/" + c.Assignment.ID + "/flag"
		if st, body := ann.do("POST", path, map[string]any{"category": "other"}); st != 422 || !strings.Contains(string(body), `"reason"`) {
			t.Fatalf("flag without a reason: %d %s", st, body)
		}
		ann.must("POST", path, map[string]any{"category": "broken_media", "reason": "the video is black"}, 204, nil)
		flagged := lead.items(pid, "flagged=true")
		if len(flagged) != 1 || !strings.Contains(string(flagged[0].Flag), "the video is black") {
			t.Fatalf("flagged list: %+v", flagged)
		}
		o := other.next(pid, "label")
		if o == nil || strings.Contains(string(o.raw), flagged[0].ID) {
			t.Fatal("the flagged item was handed out")
		}
		other.submitOK(o.Assignment.ID, map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()})
		if other.next(pid, "label") != nil {
			t.Fatal("a flagged item is in the queue")
		}
		lead.must("POST", "/api/v1/projects/"+pid+"/items/"+flagged[0].ID+"/flag", map[string]any{"action": "return"}, 204, nil)
		if other.next(pid, "label") == nil {
			t.Fatal("a returned item is not back in the queue")
		}
		if st, _ := lead.do("POST", "/api/v1/projects/"+pid+"/items/"+flagged[0].ID+"/flag", map[string]any{"action": "drop"}); st != 409 {
			t.Fatalf("resolving an unflagged item: %d", st)
		}
	})
}

// TestSpotCheck: items imported with ground truth are sampled for blind labeling, and a
// disagreement flags the item for the lead.
func TestSpotCheck(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
	pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "spot_check_rate": 1})
	lead.member(pid, ann, "annotator")
	truth := mustTemplate("robojudge").ExampleAnswers()
	gt, _ := json.Marshal(map[string]any{"provenance": "rule", "answers": truth, "note": "real demonstration: PA=5, IA=5"})
	line := strings.TrimSuffix(robojudgeLine("real-1", "real"), "}") + `,"ground_truth":` + string(gt) + "}"
	rep := lead.importNDJSON("/api/v1/projects/"+pid+"/items", line)
	if rep["imported"].(float64) != 1 {
		t.Fatalf("import: %v", rep)
	}
	c := ann.next(pid, "label")
	if c == nil {
		t.Fatal("the spot check is not in the queue")
	}
	if strings.Contains(string(c.raw), "real demonstration") || strings.Contains(string(c.raw), "ground_truth") {
		t.Fatalf("the spot check is not blind: %s", c.raw)
	}
	ann.submitOK(c.Assignment.ID, map[string]any{"answers": merge(truth, answers("physical_adherence", 2))})
	it := lead.items(pid, "")[0]
	if it.Stage != "done" || it.GroundTruth.Provenance["kind"] != "rule" || !strings.Contains(string(it.Flag), "spot_check_mismatch") {
		t.Fatalf("after the spot check: stage %s gt %+v flag %s", it.Stage, it.GroundTruth, it.Flag)
	}
}

// TestDraftsFromPredictions: model predictions prefill the form; the mean is rounded.
func TestDraftsFromPredictions(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
	pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "draft_from_predictions": map[string]any{"method": "mean"}})
	lead.member(pid, ann, "annotator")
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("d-1", "g"))
	rep := lead.importNDJSON("/api/v1/projects/"+pid+"/predictions",
		`{"external_id":"d-1","model":"judge-a","answers":{"physical_adherence":4,"instruction_alignment":2}}`,
		`{"external_id":"d-1","model":"judge-b","answers":{"physical_adherence":5,"instruction_alignment":3}}`,
		`{"external_id":"d-1","model":"judge-c","answers":{"physical_adherence":1,"instruction_alignment":9}}`,
		`{"external_id":"nope","model":"judge-b","answers":{}}`)
	if rep["imported"].(float64) != 2 || len(rep["errors"].([]any)) != 2 {
		t.Fatalf("predictions import: %v", rep)
	}
	c := ann.next(pid, "label")
	if string(c.Draft["physical_adherence"]) != "5" || len(c.Draft) != 1 {
		t.Fatalf("pass 1 draft %s (want the half-up rounded mean 4.5→5, and nothing of pass 2)", c.raw)
	}
	s := mustTemplate("robojudge")
	pa := tasks.Answers{}
	for k, v := range s.ExampleAnswers() {
		if s.PassOf(k) == 0 {
			pa[k] = v
		}
	}
	ann.must("POST", "/api/v1/projects/"+pid+"/assignments/"+c.Assignment.ID+"/submit", map[string]any{"answers": pa}, 200, nil)
	c = ann.next(pid, "label")
	if string(c.Draft["instruction_alignment"]) != "3" || len(c.Draft) != 1 {
		t.Fatalf("pass 2 draft %s (want the half-up rounded mean 2.5→3; judge-c was refused)", c.raw)
	}
}

// TestSchemaVersions: editing the schema of a project with annotations makes a new version;
// earlier annotations keep theirs.
func TestSchemaVersions(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead := e.newUser("lead@example.org", false)
	lead.member(robojudgeProject(t, lead, nil), lead, "lead", "annotator")
	var projects []struct{ ID string }
	lead.must("GET", "/api/v1/projects", nil, 200, &projects)
	pid := projects[0].ID
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("v-1", "g"), robojudgeLine("v-2", "g"))
	c := lead.next(pid, "label")
	lead.submitOK(c.Assignment.ID, map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()})
	s := mustTemplate("robojudge")
	s.Questions[0].Help = "Judge physics only; ignore the instruction. (clarified)"
	var got struct {
		SchemaVersion int `json:"schema_version"`
	}
	lead.must("PATCH", "/api/v1/projects/"+pid, map[string]any{"schema": s}, 200, &got)
	if got.SchemaVersion != 2 {
		t.Fatalf("schema version %d, want 2", got.SchemaVersion)
	}
	bad := mustTemplate("robojudge")
	bad.Questions[0].Kind = "dial"
	if st, body := lead.do("PATCH", "/api/v1/projects/"+pid, map[string]any{"schema": bad}); st != 422 || !strings.Contains(string(body), "schema.questions[0]") {
		t.Fatalf("invalid schema: %d %s", st, body)
	}
	next := lead.next(pid, "label")
	a1, _ := e.store.Assignment(t.Context(), c.Assignment.ID)
	a2, _ := e.store.Assignment(t.Context(), next.Assignment.ID)
	if a1.SchemaVersion != 1 || a2.SchemaVersion != 2 || !strings.Contains(string(next.raw), "(clarified)") {
		t.Fatalf("versions %d and %d", a1.SchemaVersion, a2.SchemaVersion)
	}
}

// TestBlindReview: the reviewer does not see the label and answers the form; a disagreement
// sends the item to adjudication.
func TestBlindReview(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead, ann, rev := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("rev@example.org", false)
	pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "review": "cross", "blind_review": true, "adjudication": "on_disagreement"})
	lead.member(pid, ann, "annotator")
	lead.member(pid, rev, "reviewer")
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("b-1", "g"), robojudgeLine("b-2", "g"))
	full := mustTemplate("robojudge").ExampleAnswers()
	for i := 0; i < 2; i++ {
		c := ann.next(pid, "label")
		ann.submitOK(c.Assignment.ID, map[string]any{"answers": full})
	}
	stages := map[string]bool{}
	for i := 0; i < 2; i++ {
		r := rev.next(pid, "review")
		if r.Context["blind"] != true || r.Context["label"] != nil {
			t.Fatalf("blind review shows the label: %s", r.raw)
		}
		mine := full
		if i == 1 {
			mine = merge(full, answers("physical_adherence", 1))
		}
		stages[rev.submitOK(r.Assignment.ID, map[string]any{"answers": mine})] = true
	}
	if !stages["done"] || !stages["adjudicate"] {
		t.Fatalf("stages after blind reviews: %v", stages)
	}
}

func openSQLite(tb testing.TB) *store.Store { return testenvSQLite(tb) }

func mustTemplate(id string) *tasks.Schema {
	t, ok := tasks.LookupTemplate(id)
	if !ok {
		panic(fmt.Sprintf("no template %s", id))
	}
	return &t.Schema
}

// TestProgressAndReviewComments: a member sees their own progress and what is left for them;
// reviews carry comments per question, and unknown questions are refused.
func TestProgressAndReviewComments(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead, ann, rev := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false), e.newUser("rev@example.org", false)
	pid := robojudgeProject(t, lead, map[string]any{"overlap": 1, "review": "cross"})
	lead.member(pid, ann, "annotator")
	lead.member(pid, rev, "reviewer")
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("p-1", "g"), robojudgeLine("p-2", "g"), robojudgeLine("p-3", "g"))
	c := ann.next(pid, "label")
	ann.submitOK(c.Assignment.ID, map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()})
	var pr struct {
		Stages []struct {
			Stage     string
			DoneToday int64 `json:"done_today"`
			DoneTotal int64 `json:"done_total"`
			Available int64
		}
	}
	ann.must("GET", "/api/v1/projects/"+pid+"/me/progress", nil, 200, &pr)
	got := map[string][2]int64{}
	for _, s := range pr.Stages {
		got[s.Stage] = [2]int64{s.DoneToday, s.Available}
	}
	if got["label"] != [2]int64{1, 2} {
		t.Fatalf("label progress %v, want done 1 and 2 left: %+v", got["label"], pr)
	}
	rev.must("GET", "/api/v1/projects/"+pid+"/me/progress", nil, 200, &pr)
	for _, s := range pr.Stages {
		if s.Stage == "review" && s.Available != 1 {
			t.Fatalf("reviewer sees %d labels to review, want 1", s.Available)
		}
	}
	r := rev.next(pid, "review")
	path := "/api/v1/projects/" + pid + "/assignments/" + r.Assignment.ID + "/submit"
	if st, body := rev.do("POST", path, map[string]any{"verdict": "approve", "comments": map[string]string{"nope": "x"}}); st != 422 || !strings.Contains(string(body), "comments.nope") {
		t.Fatalf("comment on an unknown question: %d %s", st, body)
	}
	rev.submitOK(r.Assignment.ID, map[string]any{"verdict": "approve", "comments": map[string]string{"pa_evidence": "cite the frame"}})
	var it struct {
		Item struct {
			Reviews []struct{ Comments map[string]string }
		}
	}
	items := lead.items(pid, "stage=done")
	lead.must("GET", "/api/v1/projects/"+pid+"/items/"+items[0].ID, nil, 200, &it)
	if it.Item.Reviews[0].Comments["pa_evidence"] != "cite the frame" {
		t.Fatalf("review comments not kept: %+v", it)
	}
}

// TestPrefetch: a client may hold the item after the current one, so the next item shows at
// once; never more than two open assignments per person and stage.
func TestPrefetch(t *testing.T) {
	e := newEnv(t, openSQLite)
	lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
	pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
	lead.member(pid, ann, "annotator")
	lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("n-1", "g"), robojudgeLine("n-2", "g"), robojudgeLine("n-3", "g"))
	prefetch := func() *claimResp {
		status, body := ann.do("POST", "/api/v1/projects/"+pid+"/queue/next", map[string]any{"stage": "label", "prefetch": true})
		if status != 200 {
			t.Fatalf("prefetch: %d %s", status, body)
		}
		var cr claimResp
		jsonUnmarshal(body, &cr)
		return &cr
	}
	cur := ann.next(pid, "label")
	nxt := prefetch()
	if nxt.Assignment.ID == cur.Assignment.ID {
		t.Fatal("prefetch returned the current assignment")
	}
	if again := prefetch(); again.Assignment.ID != nxt.Assignment.ID {
		t.Fatal("a second prefetch claimed a third item")
	}
	if ann.next(pid, "label").Assignment.ID != cur.Assignment.ID {
		t.Fatal("plain next no longer returns the current assignment")
	}
	ann.submitOK(cur.Assignment.ID, map[string]any{"answers": mustTemplate("robojudge").ExampleAnswers()})
	if ann.next(pid, "label").Assignment.ID != nxt.Assignment.ID {
		t.Fatal("after submit the prefetched assignment is not the current one")
	}
	third := prefetch()
	if third.Assignment.ID == nxt.Assignment.ID {
		t.Fatal("no new prefetch after the submit")
	}
	open, _ := e.store.ActiveAssignments(t.Context(), pid, ann.user.ID, "label")
	if len(open) != 2 {
		t.Fatalf("%d open assignments, want 2", len(open))
	}
}

// TestRelease: an untouched assignment can be given back and comes back to the same person;
// one with a saved draft cannot.
func TestRelease(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead, ann := e.newUser("lead@example.org", false), e.newUser("ann@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 1})
		lead.member(pid, ann, "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("r-1", "g"))
		c := ann.next(pid, "label")
		ann.must("POST", "/api/v1/projects/"+pid+"/assignments/"+c.Assignment.ID+"/release", nil, 204, nil)
		again := ann.next(pid, "label")
		if again == nil || again.Assignment.ID == c.Assignment.ID {
			t.Fatal("the released item did not come back as a new assignment")
		}
		ann.must("PUT", "/api/v1/projects/"+pid+"/assignments/"+again.Assignment.ID+"/draft", map[string]any{"answers": answers("physical_adherence", 3), "version": 0}, 200, nil)
		status, body := ann.do("POST", "/api/v1/projects/"+pid+"/assignments/"+again.Assignment.ID+"/release", nil)
		if status != 409 || errorCode(t, body) != "has_draft" {
			t.Fatalf("release with a draft: %d %s", status, body)
		}
	})
}

// TestOneReviewerReviewsEveryLabel: with overlap 3 and cross review, a team with one reviewer
// finishes: the reviewer, who labeled nothing, reviews all three labels of each item. A person
// who labeled an item never reviews it, and one who reviewed it never labels it.
func TestOneReviewerReviewsEveryLabel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		rev := e.newUser("rev@example.org", false)
		pid := robojudgeProject(t, lead, map[string]any{"overlap": 3, "review": "cross", "adjudication": "never", "on_no_consensus": "drop"})
		anns := []*client{e.newUser("a1@example.org", false), e.newUser("a2@example.org", false), e.newUser("a3@example.org", false)}
		for _, a := range anns {
			lead.member(pid, a, "annotator", "reviewer")
		}
		lead.member(pid, rev, "reviewer", "annotator")
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("one-1", "g"), robojudgeLine("one-2", "g"))
		tpl, _ := tasks.LookupTemplate("robojudge")
		label := tpl.Schema.ExampleAnswers()
		for _, a := range anns {
			for i := 0; i < 2; i++ {
				c := a.next(pid, "label")
				if c == nil {
					t.Fatalf("%s found no label work", a.user.Email)
				}
				a.submitOK(c.Assignment.ID, map[string]any{"answers": label})
			}
		}
		if c := anns[0].next(pid, "review"); c != nil {
			t.Fatalf("an annotator who labeled every item was given a review: %s", c.raw)
		}
		for i := 0; i < 6; i++ {
			c := rev.next(pid, "review")
			if c == nil {
				t.Fatalf("the reviewer ran out of work after %d of 6 reviews", i)
			}
			rev.submitOK(c.Assignment.ID, map[string]any{"verdict": "approve"})
		}
		if done := lead.items(pid, "stage=done"); len(done) != 2 {
			t.Fatalf("%d items done, want 2", len(done))
		}
		lead.importNDJSON("/api/v1/projects/"+pid+"/items", robojudgeLine("one-3", "g"))
		if c := rev.next(pid, "label"); c == nil {
			t.Fatal("the reviewer could not label a new item they had not reviewed")
		}
	})
}
