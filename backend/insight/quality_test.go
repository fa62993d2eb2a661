package insight_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// modelDrafts is a policy of overlap 3 under the majority rule whose forms start from model
// m1's predictions.
func modelDrafts() *workflow.Policy {
	p := policy(3)
	p.Consensus.Nominal = workflow.NominalMajority
	p.DraftFromPredictions = &workflow.DraftPolicy{Method: workflow.DraftModel, Model: "m1"}
	return p
}

func prediction(ext, model string, kv ...any) string {
	return fmt.Sprintf(`{"external_id": %q, "model": %q, "answers": %s}`, ext, model, mustJSON(answers(kv...)))
}

// byUser indexes a quality report by user id.
func byUser(t *testing.T, rep *insight.QualityReport) map[string]insight.AnnotatorQuality {
	t.Helper()
	out := map[string]insight.AnnotatorQuality{}
	for _, a := range rep.Annotators {
		out[a.UserID] = a
	}
	return out
}

// TestQualityFigures: three annotators label four items from model drafts of two of them and
// answer two gold items; every figure is counted by hand: labels, times and the rushed share,
// the Yes rate, agreement with peers and with the decided ground truth, the drafts kept and
// agreed with, and gold accuracy with its window flag. A paused member is shown paused.
func TestQualityFigures(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		pol := modelDrafts()
		pol.GoldRate, pol.GoldWindow = 1, 2
		f := newFixture(t, st, projects.ProjectSpec{Workflow: pol})
		people := f.annotators("Cat", "Ann", "Ben")
		cat, ann, ben := people[0], people[1], people[2]
		f.importItems(line("i1"), line("i2"), line("i3"), line("i4"),
			line("g1", `"gold": true`, `"ground_truth": {"answers": {"ok": "yes", "score": 3}}`),
			line("g2", `"gold": true`, `"ground_truth": {"answers": {"ok": "no", "score": 1}}`))
		f.importPredictions(prediction("i1", "m1", "ok", "yes", "score", 3), prediction("i2", "m1", "ok", "yes", "score", 2),
			prediction("i3", "m2", "ok", "no", "score", 1))
		// ok per item (the majority decides); every score is unanimous: i1 3, i2 2, i3 4, i4 5
		oks := map[string][3]string{"i1": {"yes", "yes", "no"}, "i2": {"no", "no", "no"}, "i3": {"yes", "no", "yes"}, "i4": {"yes", "yes", "yes"},
			"g1": {"yes", "yes", "no"}, "g2": {"yes", "no", "yes"}}
		scores := map[string]int{"i1": 3, "i2": 2, "i3": 4, "i4": 5, "g1": 3, "g2": 1}
		annTimes := map[string]int64{"i1": 1000, "i2": 2000, "i3": 5000, "i4": 8000}
		for k, u := range []*store.User{ann, ben, cat} {
			ms := fixed(4000)
			if u == ann {
				ms = func(ext string) int64 { return annTimes[ext] }
			}
			got := f.label(u, func(ext string) tasks.Answers { return answers("ok", oks[ext][k], "score", scores[ext]) }, ms)
			if len(got) != 6 || !strings.HasPrefix(got[0].ext, "g") || !strings.HasPrefix(got[1].ext, "g") {
				t.Fatalf("%s labeled %+v", u.Name, got)
			}
		}
		if err := st.SetMemberPaused(f.ctx, f.pid, cat.ID, true); err != nil {
			t.Fatal(err)
		}
		rep, err := f.in.Quality(f.ctx, f.project())
		if err != nil {
			t.Fatal(err)
		}
		if rep.ComputedAt.IsZero() || len(rep.Annotators) != 3 || rep.Annotators[0].Name != "Ann" || rep.Annotators[2].Name != "Cat" {
			t.Fatalf("report %+v", rep)
		}
		q := byUser(t, rep)
		a, b, c := q[ann.ID], q[ben.ID], q[cat.ID]
		for _, x := range []insight.AnnotatorQuality{a, b, c} {
			if x.Labels != 4 || x.Drafts.Labels != 2 || x.Gold.Answered != 2 || x.Gold.WindowAnswered != 2 {
				t.Errorf("%s: %d labels, %d drafted, %d gold (%d in the window)", x.Name, x.Labels, x.Drafts.Labels, x.Gold.Answered, x.Gold.WindowAnswered)
			}
		}
		// times: Ann 1, 2, 5, 8 seconds, two under the 3 s of the policy
		near(t, "Ann median", a.MedianSeconds, 3.5)
		near(t, "Ann p10", a.P10Seconds, 1)
		near(t, "Ann rushed", a.RushedShare, 0.5)
		near(t, "Ben median", b.MedianSeconds, 4)
		near(t, "Ben rushed", b.RushedShare, 0)
		near(t, "Ann yes rate", ptr(a.YesRate["ok"]), 0.75)
		near(t, "Ben yes rate", ptr(b.YesRate["ok"]), 0.5)
		if _, ok := a.YesRate["score"]; ok || len(a.YesRate) != 1 {
			t.Errorf("yes rates %v", a.YesRate)
		}
		// peers over ok and score: Ann–Ben agree on 3 + 4 of 8, Ann–Cat 3 + 4, Ben–Cat 2 + 4
		near(t, "Ann peer agreement", a.PeerAgreement, 14.0/16)
		near(t, "Ben peer agreement", b.PeerAgreement, 13.0/16)
		near(t, "Cat peer agreement", c.PeerAgreement, 13.0/16)
		// the majority's truth: ok yes, no, yes, yes
		near(t, "Ann truth agreement", a.TruthAgreement, 1)
		near(t, "Ben truth agreement", b.TruthAgreement, 7.0/8)
		near(t, "Cat truth agreement", c.TruthAgreement, 7.0/8)
		// drafts of i1 (yes, 3) and i2 (yes, 2): Ann and Ben keep i1's, Cat none
		near(t, "Ann drafts unchanged", a.Drafts.UnchangedShare, 0.5)
		near(t, "Ann draft agreement", a.Drafts.Agreement, 3.0/4)
		near(t, "Cat drafts unchanged", c.Drafts.UnchangedShare, 0)
		near(t, "Cat draft agreement", c.Drafts.Agreement, 2.0/4)
		// gold: Ann 1 of 2, Ben 2 of 2, Cat 0 of 2; a window of 2 judges them all
		near(t, "Ann gold", a.Gold.Accuracy, 0.5)
		near(t, "Ben gold", b.Gold.Accuracy, 1)
		near(t, "Cat window", c.Gold.WindowAccuracy, 0)
		if a.Gold.Correct != 1 || !hasFlags(a, insight.FlagLowGold) || !hasFlags(b) || !hasFlags(c, insight.FlagLowGold) {
			t.Errorf("flags: Ann %+v, Ben %+v, Cat %+v", a.Flags, b.Flags, c.Flags)
		}
		if !c.Paused || a.Paused {
			t.Errorf("paused: Cat %v, Ann %v", c.Paused, a.Paused)
		}
	})
}

// TestQualityFlags: on twenty drafted items, one annotator rushes a quarter of them, one
// answers Yes to every one and one submits every draft unchanged; each gets exactly their
// flag, with the counts in its reason. (The three never give the same score, so the
// reliability model has nothing to stand on here; its flag is left out by a minimum no
// estimate lies under, and tested in TestQualityReliabilityRanksSpammers.)
func TestQualityFlags(t *testing.T) {
	pol := modelDrafts()
	pol.ReliabilityMinAccuracy = 1e-9
	f := newFixture(t, openSQLite(t), projects.ProjectSpec{Workflow: pol})
	people := f.annotators("Rush", "Stamp", "Anchor")
	var lines, preds []string
	draft := map[string]tasks.Answers{}
	for i := range 20 {
		ext := fmt.Sprintf("i%02d", i)
		ok := map[bool]string{true: "no", false: "yes"}[i%4 == 0]
		lines, preds = append(lines, line(ext)), append(preds, prediction(ext, "m1", "ok", ok, "score", 3))
		draft[ext] = answers("ok", ok, "score", 3)
	}
	f.importItems(lines...)
	f.importPredictions(preds...)
	index := func(ext string) int {
		var i int
		fmt.Sscanf(ext, "i%d", &i)
		return i
	}
	f.label(people[0], func(ext string) tasks.Answers {
		return answers("ok", map[bool]string{true: "yes", false: "no"}[index(ext)%2 == 0], "score", 1)
	}, func(ext string) int64 { return map[bool]int64{true: 1000, false: 4000}[index(ext)%4 == 1] })
	f.label(people[1], func(string) tasks.Answers { return answers("ok", "yes", "score", 5) }, fixed(4000))
	f.label(people[2], func(ext string) tasks.Answers { return draft[ext] }, fixed(4000))
	rep, err := f.in.Quality(f.ctx, f.project())
	if err != nil {
		t.Fatal(err)
	}
	q := byUser(t, rep)
	rush, stamp, anchor := q[people[0].ID], q[people[1].ID], q[people[2].ID]
	if !hasFlags(rush, insight.FlagRushed) || !strings.Contains(rush.Flags[0].Reason, "5 of 20 labels") {
		t.Errorf("Rush: %+v", rush.Flags)
	}
	if !hasFlags(stamp, insight.FlagRubberStamping) || !strings.Contains(stamp.Flags[0].Reason, `"ok" answered Yes 20 times of 20`) {
		t.Errorf("Stamp: %+v", stamp.Flags)
	}
	if !hasFlags(anchor, insight.FlagAnchoring) || !strings.Contains(anchor.Flags[0].Reason, "20 of 20 labels") {
		t.Errorf("Anchor: %+v", anchor.Flags)
	}
	near(t, "Rush rushed", rush.RushedShare, 0.25)
	near(t, "Anchor unchanged", anchor.Drafts.UnchangedShare, 1)
	near(t, "Anchor yes rate", ptr(anchor.YesRate["ok"]), 0.75)
	if rush.Gold.Accuracy != nil || rush.Gold.Answered != 0 {
		t.Errorf("gold without gold items: %+v", rush.Gold)
	}
}

// hasFlags reports whether a person's flags are exactly these codes.
func hasFlags(a insight.AnnotatorQuality, codes ...string) bool {
	got := make([]string, len(a.Flags))
	for i, f := range a.Flags {
		got[i] = f.Code
	}
	return slices.Equal(got, codes) || len(got) == 0 && len(codes) == 0
}

func ptr(v float64) *float64 { return &v }
