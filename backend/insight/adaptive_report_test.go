package insight_test

import (
	"math"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestReportAdaptiveSaving: under adaptive overlap {min 2, max 3} the report compares the labels
// spent with the baseline's (min + 1 = 3 of every item) and estimates the ground truth's
// accuracy from the posteriors kept in its provenance, counted by hand: one item decided by two
// agreeing labels (0.941 on each question), one by three after a split (ok 0.8 by 2 against 1,
// score 0.985 by three alike), no reliability model yet (every annotator right at 0.8).
func TestReportAdaptiveSaving(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		pol := &workflow.Policy{AdaptiveOverlap: &workflow.AdaptiveOverlap{Min: 2, Max: 3, Confidence: 0.9},
			Consensus: workflow.Consensus{Nominal: workflow.NominalMajority}, Adjudication: workflow.AdjudicateNever, OnNoConsensus: workflow.NoConsensusDrop}
		f := newFixture(t, st, projects.ProjectSpec{Workflow: pol})
		people := f.annotators("Ann", "Ben", "Cat")
		f.importItems(line("i1"), line("i2"))
		oks := map[string][]string{"i1": {"yes", "yes"}, "i2": {"yes", "no", "yes"}}
		for k, u := range people {
			f.label(u, func(ext string) tasks.Answers { return answers("ok", oks[ext][k], "score", 3) }, fixed(4000))
		}
		rep, err := f.in.ComputeReport(f.ctx, f.project())
		if err != nil {
			t.Fatal(err)
		}
		a := rep.Adaptive
		if a == nil || rep.Decided != 2 || a.Labels != 5 || a.Baseline != 3 || a.BaselineLabels != 6 || a.Posteriors != 2 {
			t.Fatalf("report: %d decided, adaptive %+v", rep.Decided, a)
		}
		two, three := 0.64/0.68, 0.512/0.52
		want := map[string]float64{"ratio": 5.0 / 6, "estimated": (two*two + 0.8*three) / 2, "ok": (two + 0.8) / 2, "score": (two + three) / 2}
		got := map[string]float64{"ratio": *a.Ratio, "estimated": *a.EstimatedAccuracy, "ok": a.Questions["ok"], "score": a.Questions["score"]}
		for k, w := range want {
			if math.Abs(got[k]-w) > 1e-9 {
				t.Errorf("%s = %.12g, want %.12g", k, got[k], w)
			}
		}
	})
}
