package workflow_test

import (
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

// TestSubmitValidates: answers are checked against the form of the stage, a review needs a
// verdict, and an adjudication a rationale; a refused submit changes nothing.
func TestSubmitValidates(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Review: workflow.ReviewCross, Adjudication: workflow.AdjudicateAlways})
		f.importItems(p, likertLine("v-1"))
		ann, rev, adj := f.member(p, store.RoleAnnotator), f.member(p, store.RoleReviewer), f.member(p, store.RoleAdjudicator)
		label := f.claim(p, ann, flow.StageLabel)
		labelCases := []struct {
			name, field, code string
			in                workflow.Submission
		}{
			{"missing required answer", "quality", "required", workflow.Submission{Answers: ans(`{"comment":"no score"}`)}},
			{"score off the scale", "quality", "out_of_range", workflow.Submission{Answers: ans(`{"quality":9}`)}},
			{"unknown question", "colour", "unknown_question", workflow.Submission{Answers: ans(`{"quality":3,"colour":"red"}`)}},
			{"idempotency key too long", "Idempotency-Key", "too_long", workflow.Submission{Answers: ans(`{"quality":3}`), IdempotencyKey: strings.Repeat("k", 201)}},
		}
		for _, tc := range labelCases {
			_, err := f.wf.Submit(f.ctx, p, ann.w(), label.Assignment.ID, tc.in)
			wantField(t, err, tc.field, tc.code)
		}
		if a := f.assignment(label.Assignment.ID); a.Status != flow.AssignActive || len(a.Answers) != 0 {
			t.Fatalf("a refused submit changed the assignment: %+v", a)
		}
		f.submit(p, ann, label, workflow.Submission{Answers: ans(`{"quality":3}`)})

		review := f.claim(p, rev, flow.StageReview)
		for _, in := range []workflow.Submission{{Verdict: "maybe"}, {}} {
			_, err := f.wf.Submit(f.ctx, p, rev.w(), review.Assignment.ID, in)
			wantField(t, err, "verdict", "invalid_value")
		}
		_, err := f.wf.Submit(f.ctx, p, rev.w(), review.Assignment.ID, workflow.Submission{Verdict: flow.VerdictApprove, Comments: map[string]string{"colour": "?"}})
		wantField(t, err, "comments.colour", "unknown_question")
		_, err = f.wf.Submit(f.ctx, p, rev.w(), review.Assignment.ID, workflow.Submission{Verdict: flow.VerdictCorrect})
		wantField(t, err, "quality", "required")
		f.submit(p, rev, review, workflow.Submission{Verdict: flow.VerdictApprove, Comment: "fine", Comments: map[string]string{"quality": "fair"}})
		if r := f.assignment(review.Assignment.ID); r.Verdict == nil || *r.Verdict != flow.VerdictApprove || *r.Comment != "fine" || len(r.Answers) != 0 {
			t.Fatalf("review %+v", r)
		}

		adjudication := f.claim(p, adj, flow.StageAdjudicate)
		_, err = f.wf.Submit(f.ctx, p, adj.w(), adjudication.Assignment.ID, workflow.Submission{Answers: ans(`{"quality":3}`), Rationale: " "})
		wantField(t, err, "rationale", "required")
		_, err = f.wf.Submit(f.ctx, p, adj.w(), adjudication.Assignment.ID, workflow.Submission{Answers: ans(`{"quality":3}`), Rationale: "ok", Confidence: intp(9)})
		wantField(t, err, "confidence", "out_of_range")
		res := f.submit(p, adj, adjudication, workflow.Submission{Answers: ans(`{"quality":2}`), Rationale: "the output misses the prompt", Confidence: intp(4), ErrorCategory: "wrong_subject"})
		if res.ItemStage != flow.StageDone {
			t.Fatalf("adjudicated item is %s", res.ItemStage)
		}
		gt := f.truth(f.item(p, "v-1"))
		if gt.Provenance != flow.ProvenanceAdjudicated || *gt.DecidedBy != adj.ID || *gt.Rationale != "the output misses the prompt" ||
			answersOf(t, gt.Answers)["quality"] != 2.0 || answersOf(t, gt.Details)["confidence"] != 4.0 {
			t.Fatalf("ground truth %+v", gt)
		}
	})
}

// TestSubmitReplays: a retry with the same idempotency key returns the first result; any other
// submit of a submitted assignment is refused.
func TestSubmitReplays(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Overlap: 2})
		f.importItems(p, likertLine("k-1"))
		ann := f.member(p, store.RoleAnnotator)
		c := f.claim(p, ann, flow.StageLabel)
		in := workflow.Submission{Answers: ans(`{"quality":5,"comment":"great"}`), TimeSpentMS: 1234, IdempotencyKey: "key-1"}
		first := f.submit(p, ann, c, in)
		a := first.Assignment
		if first.Replayed || a.Status != flow.AssignSubmitted || a.TimeSpentMS != 1234 || a.SubmittedAt == nil || !a.SubmittedAt.Equal(f.now) || a.Version != 1 {
			t.Fatalf("first submit %+v", a)
		}
		if first.ItemStage != flow.StageLabel {
			t.Fatalf("one of two labels moved the item to %s", first.ItemStage)
		}
		replay := f.submit(p, ann, c, in)
		if !replay.Replayed || replay.Assignment.ID != a.ID || replay.ItemStage != flow.StageLabel {
			t.Fatalf("replay %+v", replay)
		}
		for _, key := range []string{"key-2", ""} {
			_, err := f.wf.Submit(f.ctx, p, ann.w(), c.Assignment.ID, workflow.Submission{Answers: ans(`{"quality":1}`), IdempotencyKey: key})
			wantErr(t, err, workflow.ErrAlreadyDone)
		}
		stored := f.assignment(a.ID)
		if got := answersOf(t, stored.Answers); got["quality"] != 5.0 || got["comment"] != "great" {
			t.Fatalf("stored answers %v", got)
		}
		revs, err := f.st.Revisions(f.ctx, a.ID)
		if err != nil || len(revs) != 1 || revs[0].Kind != string(flow.RevisionSubmit) {
			t.Fatalf("revisions %+v %v", revs, err)
		}
	})
}

// TestSubmitOldSchemaVersion: work claimed under one schema version is submitted against it,
// after the lead changed the schema.
func TestSubmitOldSchemaVersion(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		f.importItems(p, likertLine("sv-1"))
		ann := f.member(p, store.RoleAnnotator)
		c := f.claim(p, ann, flow.StageLabel)
		next := *p.Schema
		next.Questions = append(next.Questions[:0:0], next.Questions...)
		next.Questions[0].Required = false
		next.Questions[0].Help = "changed"
		d, err := f.prj.PatchProject(f.ctx, f.lead.ID, p.Project, store.RoleSet{store.RoleLead}, projects.ProjectPatch{Schema: &next})
		if err != nil || d.SchemaVersion != 2 {
			t.Fatalf("patch: %v", err)
		}
		p2 := f.load(p.ID)
		again := f.claim(p2, ann, flow.StageLabel)
		if again.Assignment.SchemaVersion != 1 || again.View.Schema.Questions[0].Help == "changed" {
			t.Fatalf("a resumed claim shows version %d", again.Assignment.SchemaVersion)
		}
		_, err = f.wf.Submit(f.ctx, p2, ann.w(), c.Assignment.ID, workflow.Submission{Answers: ans(`{}`)})
		wantField(t, err, "quality", "required")
		if res := f.submit(p2, ann, c, workflow.Submission{Answers: ans(`{"quality":4}`)}); res.ItemStage != flow.StageDone {
			t.Fatalf("item %s", res.ItemStage)
		}
	})
}
