package workflow_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

var draftSchema = tasks.Schema{
	Inputs: []tasks.Input{{Name: "prompt", Type: tasks.InputText}},
	Questions: []tasks.Question{
		{Key: "score", Kind: tasks.KindLikert, Min: intp(1), Max: intp(5)},
		{Key: "check", Kind: tasks.KindChecklist, Items: []tasks.ChecklistItem{{Key: "a", Max: 2}, {Key: "b", Max: 2}}},
		{Key: "ok", Kind: tasks.KindBinary},
		{Key: "why", Kind: tasks.KindText},
	},
}

// preds makes one prediction per model, named m1, m2, ... in order.
func preds(answers ...string) []store.Prediction {
	out := make([]store.Prediction, len(answers))
	for i, a := range answers {
		out[i] = store.Prediction{Model: fmt.Sprintf("m%d", i+1), Answers: store.JSON(a)}
	}
	return out
}

// TestDraftFrom: predictions combine into a draft by mean (rounded as the policy says),
// majority or one model, keeping only answers the schema accepts.
func TestDraftFrom(t *testing.T) {
	mean := func(r workflow.Rounding) workflow.DraftPolicy {
		return workflow.DraftPolicy{Method: workflow.DraftMean, Rounding: r}
	}
	cases := []struct {
		name  string
		d     workflow.DraftPolicy
		preds []store.Prediction
		want  string // the draft as JSON; "null" for none
	}{
		{"mean rounds half up", mean(workflow.RoundHalfUp), preds(`{"score":2}`, `{"score":3}`), `{"score":3}`},
		{"mean rounds down", mean(workflow.RoundFloor), preds(`{"score":2}`, `{"score":3}`), `{"score":2}`},
		{"mean rounds up", mean(workflow.RoundCeil), preds(`{"score":2}`, `{"score":2}`, `{"score":3}`), `{"score":3}`},
		{"mean half up below the half", mean(workflow.RoundHalfUp), preds(`{"score":2}`, `{"score":2}`, `{"score":3}`), `{"score":2}`},
		{"mean per checklist item", mean(workflow.RoundFloor), preds(`{"check":{"a":1,"b":2}}`, `{"check":{"a":2,"b":2}}`, `{"check":{"b":1}}`),
			`{"check":{"a":1,"b":1}}`},
		{"mean of a binary is its majority", mean(workflow.RoundHalfUp), preds(`{"ok":"no"}`, `{"ok":"yes"}`, `{"ok":"yes"}`), `{"ok":"yes"}`},
		{"mean with na among scores votes", mean(workflow.RoundHalfUp), preds(`{"score":"na"}`, `{"score":4}`, `{"score":4}`), `{"score":4}`},
		{"majority of scores", workflow.DraftPolicy{Method: workflow.DraftMajority}, preds(`{"score":2}`, `{"score":5}`, `{"score":2}`), `{"score":2}`},
		{"one model", workflow.DraftPolicy{Method: workflow.DraftModel, Model: "m2"}, preds(`{"score":1,"ok":"no"}`, `{"score":5}`), `{"score":5}`},
		{"a model without predictions", workflow.DraftPolicy{Method: workflow.DraftModel, Model: "m9"}, preds(`{"score":1}`), `null`},
		{"no predictions", mean(workflow.RoundHalfUp), nil, `null`},
		{"answers the schema refuses are dropped", mean(workflow.RoundHalfUp), preds(`{"score":9,"ok":"maybe"}`), `{}`},
		{"free text is kept as predicted", workflow.DraftPolicy{Method: workflow.DraftMajority}, preds(`{"why":"blurry"}`, `{"why":"blurry"}`), `{"why":"blurry"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := json.Marshal(workflow.DraftFrom(&draftSchema, tc.d, tc.preds))
			if string(got) != tc.want {
				t.Fatalf("draft %s, want %s", got, tc.want)
			}
		})
	}
}

// TestPrefill: a label claim starts from the draft the policy makes of the item's predictions;
// the person learns only that it was prefilled, and the draft is kept as revision 0.
func TestPrefill(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		for _, tc := range []struct {
			d      workflow.DraftPolicy
			source string
			want   string
		}{
			{workflow.DraftPolicy{Method: workflow.DraftModel, Model: "judge-b"}, "model:judge-b", "1"},
			{workflow.DraftPolicy{Method: workflow.DraftMean}, "predictions:mean", "3"},
		} {
			d := tc.d
			p := f.template("likert-rating", workflow.Policy{DraftFromPredictions: &d, Review: workflow.ReviewCross})
			f.importItems(p, likertLine("pf-1"))
			lines := `{"external_id":"pf-1","model":"judge-a","answers":{"quality":4}}` + "\n" + `{"external_id":"pf-1","model":"judge-b","answers":{"quality":1}}`
			if rep, err := f.imp.ImportPredictions(f.ctx, p, f.lead.ID, strings.NewReader(lines), nil); err != nil || rep.Imported != 2 {
				t.Fatalf("predictions %+v %v", rep, err)
			}
			ann := f.member(p, store.RoleAnnotator)
			c := f.claim(p, ann, flow.StageLabel)
			if string(c.Draft["quality"]) != tc.want || c.DraftSource == nil || *c.DraftSource != workflow.DraftPrefilled {
				t.Fatalf("%s: draft %v source %v", tc.source, c.Draft, c.DraftSource)
			}
			a := f.assignment(c.Assignment.ID)
			if a.DraftSource == nil || *a.DraftSource != tc.source || a.Version != 0 {
				t.Fatalf("stored draft source %v", a.DraftSource)
			}
			revs, _ := f.st.Revisions(f.ctx, a.ID)
			if len(revs) != 1 || revs[0].Kind != string(flow.RevisionPrefill) || revs[0].Version != 0 {
				t.Fatalf("revisions %+v", revs)
			}
			f.submit(p, ann, c, workflow.Submission{Answers: ans(`{"quality":2}`)})
			r := f.claim(p, f.member(p, store.RoleReviewer), flow.StageReview)
			if r.DraftSource != nil || len(r.Draft) != 0 {
				t.Fatalf("a review started from the model's draft: %v", r.Draft)
			}
		}
	})
}
