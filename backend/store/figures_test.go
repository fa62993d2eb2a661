package store_test

import (
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
)

func TestWorkFigures(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead, ann, bob, rev := f.user("lead"), f.user("ann"), f.user("bob"), f.user("rev")
		p := f.project(lead)
		its := f.items(p, "i", flow.StageReview, 3)
		gold := f.item(p, "g", flow.StageGold)
		pool := f.item(p, "pool", flow.StageCalibration)
		verdict := func(v flow.Verdict) func(*store.Assignment) {
			return func(a *store.Assignment) { a.Verdict = &v }
		}
		l0 := f.assign(its[0], ann, flow.StageLabel, flow.AssignSubmitted)
		l1 := f.assign(its[0], bob, flow.StageLabel, flow.AssignSubmitted)
		l2 := f.assign(its[1], ann, flow.StageLabel, flow.AssignRejected)
		f.assign(its[1], bob, flow.StageLabel, flow.AssignSubmitted)
		f.assign(its[2], ann, flow.StageLabel, flow.AssignActive)
		f.assign(gold, ann, flow.StageLabel, flow.AssignSubmitted)
		f.assign(gold, bob, flow.StageLabel, flow.AssignSubmitted)
		f.assign(pool, ann, flow.StageCalibration, flow.AssignSubmitted)
		f.assign(its[0], rev, flow.StageReview, flow.AssignSubmitted, reviewOf(l0), verdict(flow.VerdictApprove))
		f.assign(its[0], rev, flow.StageReview, flow.AssignSubmitted, reviewOf(l1), verdict(flow.VerdictApprove))
		f.assign(its[1], rev, flow.StageReview, flow.AssignSubmitted, reviewOf(l2), verdict(flow.VerdictReject))
		f.assign(its[2], rev, flow.StageReview, flow.AssignActive, verdict(flow.VerdictCorrect)) // not submitted

		work, err := f.s.StageWork(f.ctx, p.ID)
		must(t, err)
		equal(t, "stage work", work, []store.StageWork{{Stage: flow.StageLabel, People: 2, Submitted: 6}, {Stage: flow.StageReview, People: 1, Submitted: 3}})
		verdicts, err := f.s.ReviewVerdicts(f.ctx, p.ID)
		must(t, err)
		equal(t, "verdicts", verdicts, []store.VerdictCount{{Verdict: flow.VerdictApprove, Count: 2}, {Verdict: flow.VerdictReject, Count: 1}})
		multi, err := f.s.MultiLabelItems(f.ctx, p.ID, 2, 10)
		must(t, err)
		equalIDs(t, "items with two accepted labels, gold left out", multi, its[0].ID)
		multi, err = f.s.MultiLabelItems(f.ctx, p.ID, 1, 1)
		must(t, err)
		equalIDs(t, "the first item with a label", multi, its[0].ID)

		for _, reason := range []*string{new("spam"), new("spam"), new("empty"), nil} {
			it := f.item(p, unique("drop"), flow.StageLabel)
			must(t, f.s.SetItemStage(f.ctx, it.ID, flow.StageDropped, reason))
		}
		drops, err := f.s.DropReasons(f.ctx, p.ID)
		must(t, err)
		equal(t, "drop reasons", drops, []store.DropReasonCount{{Reason: "spam", Items: 2}, {Reason: "", Items: 1}, {Reason: "empty", Items: 1}})
	})
}
