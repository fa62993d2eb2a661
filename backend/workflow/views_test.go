package workflow_test

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestAdjudicationView: an adjudicator sees every submitted label with its review, a rejected
// one marked as not counted, what the consensus rule made of the counted ones, and names only
// when the project shows them; the decision keeps the adjudicator's text first.
func TestAdjudicationView(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		for _, names := range []bool{false, true} {
			p := f.template("likert-rating", workflow.Policy{Overlap: 2, Review: workflow.ReviewCross, ShowAnnotatorNames: names})
			f.importItems(p, likertLine("a-1"))
			a, b, c := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
			rev, adj := f.member(p, store.RoleReviewer), f.member(p, store.RoleAdjudicator)
			la := f.label(p, a, `{"quality":1,"comment":"broken"}`).Assignment.ID
			lb := f.label(p, b, `{"quality":5}`).Assignment.ID
			review := func() {
				r := f.claim(p, rev, flow.StageReview)
				in := workflow.Submission{Verdict: flow.VerdictApprove}
				if *r.Assignment.TargetID == la {
					in = workflow.Submission{Verdict: flow.VerdictReject, Comment: "judged the wrong output"}
				}
				f.submit(p, rev, r, in)
			}
			review()
			review()
			lc := f.label(p, c, `{"quality":4}`).Assignment.ID
			review()
			if it := f.item(p, "a-1"); it.Stage != flow.StageAdjudicate {
				t.Fatalf("item %s after two reviewed labels that disagree", it.Stage)
			}

			claim := f.claim(p, adj, flow.StageAdjudicate)
			views, ok := claim.Context["labels"].([]workflow.LabelView)
			if !ok || len(views) != 3 {
				t.Fatalf("labels %#v", claim.Context["labels"])
			}
			byID := map[string]workflow.LabelView{}
			for _, v := range views {
				byID[v.AssignmentID] = v
			}
			wantBy := map[string]string{la: "Annotator 1", lb: "Annotator 2", lc: "Annotator 3"}
			who := map[string]person{la: a, lb: b, lc: c}
			for id, pseudonym := range wantBy {
				v := byID[id]
				if names && (v.By != who[id].ID || v.Name != who[id].Name) {
					t.Errorf("names shown: label %s by %q %q", id, v.By, v.Name)
				}
				if !names && (v.By != pseudonym || v.Name != "") {
					t.Errorf("names hidden: label %s by %q %q, want %s", id, v.By, v.Name, pseudonym)
				}
				if v.Review == nil || (names && v.Review.By != rev.ID) || (!names && v.Review.By != "Reviewer 1") {
					t.Errorf("label %s review %+v", id, v.Review)
				}
			}
			if v := byID[la]; v.Counted || v.Review.Verdict != flow.VerdictReject || v.Review.Comment != "judged the wrong output" || string(v.Original["quality"]) != "1" {
				t.Errorf("the rejected label %+v", v)
			}
			if !byID[lb].Counted || !byID[lc].Counted {
				t.Error("an approved label is not counted")
			}
			cv := claim.Context["consensus"].(workflow.ConsensusView)
			if cv.Agreed || cv.Questions[0].Question != "quality" || cv.Questions[0].State != workflow.StateNoConsensus {
				t.Errorf("consensus %+v", cv)
			}
			ds := claim.Context["disagreements"].([]workflow.Disagreement)
			if len(ds) != 1 || ds[0].Question != "quality" || len(ds[0].Values) != 2 || ds[0].Resolved {
				t.Errorf("disagreements %+v", ds)
			}

			f.submit(p, adj, claim, workflow.Submission{Answers: ans(`{"quality":4,"comment":"minor flaws only"}`), Rationale: "the later labels agree within one"})
			var texts map[string][]exports.TextAnswer
			if err := json.Unmarshal(f.truth(f.item(p, "a-1")).Texts, &texts); err != nil {
				t.Fatal(err)
			}
			if got := texts["comment"]; len(got) != 1 || got[0].Role != "adjudicator" || got[0].Author != adj.ID {
				t.Errorf("kept texts %+v (the rejected label's text is not part of the decision)", texts)
			}
		}
	})
}

// TestReviewViewOrder: a reviewer sees the label in their own shown order of the candidates.
func TestReviewViewOrder(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("pairwise-preference", workflow.Policy{Review: workflow.ReviewCross})
		for _, id := range []string{"o-1", "o-2", "o-3", "o-4", "o-5", "o-6"} {
			f.importItems(p, pairLine(id))
		}
		ann, rev := f.member(p, store.RoleAnnotator), f.member(p, store.RoleReviewer)
		canonical := map[string]string{} // item → the canonical pick
		for range 6 {
			c := f.claim(p, ann, flow.StageLabel)
			res := f.submit(p, ann, c, workflow.Submission{Answers: ans(`{"preference":"A"}`)})
			canonical[res.Assignment.ItemID] = answersOf(t, res.Assignment.Answers)["preference"].(string)
		}
		for range 6 {
			c := f.claim(p, rev, flow.StageReview)
			label := f.assignment(*c.Assignment.TargetID)
			want, err := p.Schema.ToShown(tasks.Answers{"preference": json.RawMessage(`"` + canonical[label.ItemID] + `"`)}, c.View.Shuffle)
			if err != nil {
				t.Fatal(err)
			}
			shown := c.Context["label"].(map[string]any)["answers"].(tasks.Answers)
			if string(shown["preference"]) != string(want["preference"]) {
				t.Fatalf("reviewer sees %s, in their order the label is %s", shown["preference"], want["preference"])
			}
			f.submit(p, rev, c, workflow.Submission{Verdict: flow.VerdictApprove})
		}
		for id, pick := range canonical {
			gt := answersOf(t, f.truth(f.itemByID(p, id)).Answers)
			if gt["preference"] != pick {
				t.Errorf("item %s decided %v, the label's canonical pick was %s", id, gt["preference"], pick)
			}
		}
	})
}
