package workflow_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
)

// TestAdvanceConsensus: once an item has its overlap of labels, the consensus rule and the
// adjudication policy decide it: ground truth with its provenance, adjudication, or a drop
// with the disagreement as the reason.
func TestAdvanceConsensus(t *testing.T) {
	cases := []struct {
		name       string
		pol        workflow.Policy
		labels     []string
		stage      flow.Stage
		provenance flow.Provenance
		quality    float64 // the decided score
		reason     string  // the drop reason
	}{
		{"single label", workflow.Policy{}, []string{`{"quality":4}`},
			flow.StageDone, flow.ProvenanceSingle, 4, ""},
		{"unanimous", workflow.Policy{Overlap: 2}, []string{`{"quality":4,"comment":"sharp"}`, `{"quality":4}`},
			flow.StageDone, flow.ProvenanceUnanimous, 4, ""},
		{"majority cluster", workflow.Policy{Overlap: 3, Consensus: workflow.Consensus{Nominal: workflow.NominalMajority}},
			[]string{`{"quality":2}`, `{"quality":5}`, `{"quality":5}`}, flow.StageDone, flow.ProvenanceMajority, 5, ""},
		{"within tolerance", workflow.Policy{Overlap: 2, Consensus: workflow.Consensus{OrdinalTolerance: 1}},
			[]string{`{"quality":3}`, `{"quality":4}`}, flow.StageDone, flow.ProvenanceMajority, 3, ""},
		{"no consensus goes to adjudication", workflow.Policy{Overlap: 2}, []string{`{"quality":1}`, `{"quality":5}`},
			flow.StageAdjudicate, "", 0, ""},
		{"no consensus dropped", workflow.Policy{Overlap: 2, OnNoConsensus: workflow.NoConsensusDrop},
			[]string{`{"quality":5}`, `{"quality":1}`}, flow.StageDropped, "", 0, "no consensus on quality (1, 5)"},
		{"never adjudicated drops", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateNever},
			[]string{`{"quality":2}`, `{"quality":"na"}`}, flow.StageDropped, "", 0, `no consensus on quality ("na", 2)`},
		{"always adjudicated", workflow.Policy{Overlap: 2, Adjudication: workflow.AdjudicateAlways},
			[]string{`{"quality":4}`, `{"quality":4}`}, flow.StageAdjudicate, "", 0, ""},
	}
	forEachBackend(t, func(t *testing.T, f *fixture) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p := f.template("likert-rating", tc.pol)
				f.importItems(p, likertLine("c-1"))
				var res *workflow.Result
				for i, l := range tc.labels {
					res = f.label(p, f.member(p, store.RoleAnnotator), l)
					if i < len(tc.labels)-1 && res.ItemStage != flow.StageLabel {
						t.Fatalf("label %d moved the item to %s", i+1, res.ItemStage)
					}
				}
				it := f.item(p, "c-1")
				if res.ItemStage != tc.stage || it.Stage != tc.stage {
					t.Fatalf("item %s (reported %s), want %s", it.Stage, res.ItemStage, tc.stage)
				}
				gt := f.truth(it)
				if tc.provenance == "" {
					if gt != nil {
						t.Fatalf("undecided item has ground truth %+v", gt)
					}
				} else if gt.Provenance != tc.provenance || answersOf(t, gt.Answers)["quality"] != tc.quality ||
					answersOf(t, gt.Details)["labels"] != float64(len(tc.labels)) {
					t.Fatalf("ground truth %s %s %s", gt.Provenance, gt.Answers, gt.Details)
				}
				if got := deref(it.DropReason); got != tc.reason {
					t.Fatalf("drop reason %q, want %q", got, tc.reason)
				}
			})
		}
	})
}

// TestAdvanceKeepsTexts: the free text behind a decision is kept with the ground truth, by
// whom and in what role.
func TestAdvanceKeepsTexts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Overlap: 2})
		f.importItems(p, likertLine("t-1"))
		a, b := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		f.label(p, a, `{"quality":4,"comment":"crisp"}`)
		f.label(p, b, `{"quality":4,"comment":"  "}`)
		var texts map[string][]exports.TextAnswer
		if err := json.Unmarshal(f.truth(f.item(p, "t-1")).Texts, &texts); err != nil {
			t.Fatal(err)
		}
		if got := texts["comment"]; len(got) != 1 || got[0].Author != a.ID || got[0].Role != "annotator" || got[0].Text != "crisp" {
			t.Fatalf("kept texts %+v", texts)
		}
	})
}

// TestCrossReview: every label is reviewed by someone who did not make it; an approval keeps
// it, a correction replaces its answers, a rejection frees its slot for another label.
func TestCrossReview(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Review: workflow.ReviewCross})
		f.importItems(p, likertLine("x-1"), likertLine("x-2"), likertLine("x-3"))
		ann := f.member(p, store.RoleAnnotator, store.RoleReviewer)
		rev := f.member(p, store.RoleReviewer)
		labels := map[string]string{}
		for range 3 {
			res := f.label(p, ann, `{"quality":4,"comment":"good"}`)
			if res.ItemStage != flow.StageReview || res.Assignment.ReviewStatus != flow.ReviewPending {
				t.Fatalf("label left the item in %s (%s)", res.ItemStage, res.Assignment.ReviewStatus)
			}
			labels[res.Assignment.ID] = res.Assignment.ItemID
		}
		if c := f.next(p, ann, flow.StageReview); c != nil {
			t.Fatal("an annotator was given their own label to review")
		}

		verdicts := []struct {
			in      workflow.Submission
			status  flow.ReviewStatus
			stage   flow.Stage
			quality float64
		}{
			{workflow.Submission{Verdict: flow.VerdictApprove}, flow.ReviewApproved, flow.StageDone, 4},
			{workflow.Submission{Verdict: flow.VerdictCorrect, Answers: ans(`{"quality":2,"comment":"blurry"}`)}, flow.ReviewCorrected, flow.StageDone, 2},
			{workflow.Submission{Verdict: flow.VerdictReject, Comment: "wrong output judged"}, flow.ReviewRejected, flow.StageLabel, 0},
		}
		var rejected string // the item of the rejected label
		for _, v := range verdicts {
			c := f.claim(p, rev, flow.StageReview)
			lid := *c.Assignment.TargetID
			if c.Context["blind"] != false || c.Context["label"] == nil {
				t.Fatalf("an open review does not show the label: %v", c.Context)
			}
			res := f.submit(p, rev, c, v.in)
			label := f.assignment(lid)
			if label.ReviewStatus != v.status || res.ItemStage != v.stage {
				t.Fatalf("%s: label %s, item %s", v.in.Verdict, label.ReviewStatus, res.ItemStage)
			}
			if v.quality != 0 && answersOf(t, f.truth(f.itemByID(p, labels[lid])).Answers)["quality"] != v.quality {
				t.Fatalf("%s: ground truth does not hold %v", v.in.Verdict, v.quality)
			}
			if v.status == flow.ReviewRejected {
				if label.Status != flow.AssignRejected {
					t.Fatalf("a rejected label is %s", label.Status)
				}
				rejected = label.ItemID
			}
		}
		redo := f.claim(p, f.member(p, store.RoleAnnotator), flow.StageLabel)
		if redo.Assignment.ItemID != rejected || f.itemByID(p, rejected).Stage != flow.StageLabel {
			t.Fatal("the rejected label's item did not go back to labeling")
		}
		var texts map[string][]exports.TextAnswer
		for lid, item := range labels {
			if f.assignment(lid).ReviewStatus == flow.ReviewCorrected {
				json.Unmarshal(f.truth(f.itemByID(p, item)).Texts, &texts)
			}
		}
		if got := texts["comment"]; len(got) != 1 || got[0].Role != "corrected" || got[0].Text != "blurry" || got[0].Author != rev.ID {
			t.Fatalf("a corrected label keeps %+v (want the reviewer %s's text)", texts, rev.ID)
		}
	})
}

// TestBlindReview: a blind reviewer answers without seeing the label; agreement approves it,
// disagreement sends the item to adjudication.
func TestBlindReview(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{Review: workflow.ReviewCross, BlindReview: true})
		f.importItems(p, likertLine("b-1"), likertLine("b-2"))
		ann, rev := f.member(p, store.RoleAnnotator), f.member(p, store.RoleReviewer)
		f.label(p, ann, `{"quality":3}`)
		f.label(p, ann, `{"quality":3}`)
		for _, tc := range []struct {
			answers string
			verdict flow.Verdict
			status  flow.ReviewStatus
			stage   flow.Stage
		}{
			{`{"quality":3}`, flow.VerdictApprove, flow.ReviewApproved, flow.StageDone},
			{`{"quality":1}`, flow.VerdictDispute, flow.ReviewDisputed, flow.StageAdjudicate},
		} {
			c := f.claim(p, rev, flow.StageReview)
			if c.Context["blind"] != true || c.Context["label"] != nil {
				t.Fatalf("a blind review shows %v", c.Context)
			}
			res := f.submit(p, rev, c, workflow.Submission{Answers: ans(tc.answers)})
			r, l := f.assignment(c.Assignment.ID), f.assignment(*c.Assignment.TargetID)
			if *r.Verdict != tc.verdict || l.ReviewStatus != tc.status || res.ItemStage != tc.stage {
				t.Fatalf("blind %s: verdict %s, label %s, item %s", tc.answers, *r.Verdict, l.ReviewStatus, res.ItemStage)
			}
		}
	})
}

// TestSpotCheck: a blind label of an item imported with ground truth leaves that ground truth
// in place and flags the item for the lead when it disagrees.
func TestSpotCheck(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{SpotCheckRate: 1})
		truthLine := func(id string) string {
			return fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":"p","output":[{"id":"o","type":"text","value":"v"}]},"ground_truth":{"answers":{"quality":4},"provenance":"rule"}}`, id)
		}
		f.importItems(p, truthLine("sc-1"), truthLine("sc-2"))
		if it := f.item(p, "sc-1"); it.Stage != flow.StageLabel || !it.SpotCheck {
			t.Fatalf("imported item %s spot check %v", it.Stage, it.SpotCheck)
		}
		ann := f.member(p, store.RoleAnnotator)
		outcomes := map[string]bool{}
		for _, score := range []string{`{"quality":4}`, `{"quality":1}`} {
			res := f.label(p, ann, score)
			it, _ := f.st.Item(f.ctx, p.ID, res.Assignment.ItemID)
			gt := f.truth(it)
			if it.Stage != flow.StageDone || gt.Provenance != flow.ProvenanceRule || answersOf(t, gt.Answers)["quality"] != 4.0 {
				t.Fatalf("spot checked item %s, truth %s %s", it.Stage, gt.Provenance, gt.Answers)
			}
			var flag struct{ Category string }
			json.Unmarshal(it.Flag, &flag)
			outcomes[score] = flag.Category == "spot_check_mismatch"
		}
		if outcomes[`{"quality":4}`] || !outcomes[`{"quality":1}`] {
			t.Fatalf("mismatch flags %v, want only the disagreeing label flagged", outcomes)
		}
	})
}

func deref[T any](p *T) T {
	var zero T
	if p != nil {
		return *p
	}
	return zero
}
