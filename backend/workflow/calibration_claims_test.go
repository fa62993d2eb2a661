package workflow_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/calibration"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
)

func poolLine(id string) string {
	return fmt.Sprintf(`{"external_id":%q,"inputs":{"prompt":"pool %s","output":[{"id":"c","type":"text","value":"v"}]},"ground_truth":{"answers":{"quality":3}}}`, id, id)
}

// TestCalibrationClaims: participants of an open round each label every round item once, a
// paused annotator included; the answers never move a pool item, and once the round is closed
// its work is frozen.
func TestCalibrationClaims(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		if rep, err := f.imp.ImportPool(f.ctx, p, f.lead.ID, strings.NewReader(poolLine("cal-1")+"\n"+poolLine("cal-2"))); err != nil || rep.Imported != 2 {
			t.Fatalf("pool import %+v %v", rep, err)
		}
		a, b := f.member(p, store.RoleAnnotator), f.member(p, store.RoleAnnotator)
		if err := f.st.SetMemberPaused(f.ctx, p.ID, b.ID, true); err != nil {
			t.Fatal(err)
		}
		cal := calibration.New(f.st, f.wf)
		round, err := cal.CreateRound(f.ctx, p, f.lead.ID, calibration.RoundSpec{Name: "round one", ExternalIDs: []string{"cal-1", "cal-2"},
			Participants: []string{a.ID, b.ID}, Pass: calibration.PassRule{Metric: flow.PassAccuracyVsGold, Threshold: 0.5}})
		if err != nil {
			t.Fatal(err)
		}

		seen := map[string]bool{}
		for range 2 {
			c := f.claim(p, a, flow.StageCalibration)
			if c.Assignment.RoundID == nil || *c.Assignment.RoundID != round.ID || seen[c.Assignment.ItemID] {
				t.Fatalf("calibration claim %+v", c.Assignment)
			}
			seen[c.Assignment.ItemID] = true
			if res := f.submit(p, a, c, workflow.Submission{Answers: ans(`{"quality":3}`)}); res.ItemStage != flow.StageCalibration {
				t.Fatalf("a calibration answer moved the pool item to %s", res.ItemStage)
			}
		}
		if c := f.next(p, a, flow.StageCalibration); c != nil {
			t.Fatal("a round item was handed out twice to the same person")
		}

		open := f.claim(p, b, flow.StageCalibration) // note: a pause does not keep anyone out of calibration
		f.advance(2 * p.Lease())
		if c := f.claim(p, b, flow.StageCalibration); c.Assignment.ID != open.Assignment.ID {
			t.Fatal("calibration work past its lease was not resumed: every participant has a slot of their own")
		}
		if _, err := cal.CloseRound(f.ctx, p, f.lead.ID, round.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.wf.SaveDraft(f.ctx, p, b.w(), open.Assignment.ID, ans(`{"quality":1}`), intp(0))
		wantErr(t, err, workflow.ErrRoundClosed)
		_, err = f.wf.Submit(f.ctx, p, b.w(), open.Assignment.ID, workflow.Submission{Answers: ans(`{"quality":1}`)})
		wantErr(t, err, workflow.ErrRoundClosed)
		if c := f.next(p, b, flow.StageCalibration); c != nil {
			t.Fatal("a closed round handed out work")
		}
	})
}

// TestCalibrationFlagKeepsPool: dropping a flagged pool item clears its flag and leaves it in
// the pool.
func TestCalibrationFlagKeepsPool(t *testing.T) {
	forEachBackend(t, func(t *testing.T, f *fixture) {
		p := f.template("likert-rating", workflow.Policy{})
		if _, err := f.imp.ImportPool(f.ctx, p, f.lead.ID, strings.NewReader(poolLine("cf-1"))); err != nil {
			t.Fatal(err)
		}
		a := f.member(p, store.RoleAnnotator)
		if _, err := calibration.New(f.st, f.wf).CreateRound(f.ctx, p, f.lead.ID, calibration.RoundSpec{Name: "r", ExternalIDs: []string{"cf-1"},
			Participants: []string{a.ID}, Pass: calibration.PassRule{Metric: flow.PassAccuracyVsGold, Threshold: 0.5}}); err != nil {
			t.Fatal(err)
		}
		c := f.claim(p, a, flow.StageCalibration)
		if err := f.wf.Flag(f.ctx, p, a.w(), c.Assignment.ID, flow.FlagBrokenMedia, ""); err != nil {
			t.Fatal(err)
		}
		if err := f.wf.ResolveFlag(f.ctx, p, f.lead.ID, c.Assignment.ItemID, flow.FlagDrop, ""); err != nil {
			t.Fatal(err)
		}
		if it := f.itemByID(p, c.Assignment.ItemID); it.Stage != flow.StageCalibration || len(it.Flag) != 0 || it.DropReason != nil {
			t.Fatalf("pool item %s flag %s", it.Stage, it.Flag)
		}
	})
}
