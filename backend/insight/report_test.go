package insight_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	"github.com/arbiter-annotation/arbiter/backend/projects"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// reportFixture runs a project of overlap 2 that adjudicates disagreements through every
// ending: r1 agreed, r2 (ok) and r3 (score) adjudicated, r4 waiting for adjudication, r6 with
// one label of two, r5 flagged and dropped, d1 imported decided.
func reportFixture(t *testing.T, st *store.Store) *fixture {
	t.Helper()
	f := newFixture(t, st, projects.ProjectSpec{Workflow: &workflow.Policy{Overlap: 2}})
	people := f.annotators("Ann", "Ben")
	ann, ben := people[0], people[1]
	adj := f.user("Adj", store.RoleAdjudicator)
	f.importItems(line("r1", `"language": "en"`), line("r2"), line("r3"),
		line("d1", `"language": "de"`, `"ground_truth": {"provenance": "constructed", "answers": {"ok": "no", "score": 1}}`))
	annSays := map[string]tasks.Answers{"r1": answers("ok", "yes", "score", 4), "r2": answers("ok", "yes", "score", 3),
		"r3": answers("ok", "no", "score", 2), "r4": answers("ok", "yes", "score", 5), "r6": answers("ok", "yes", "score", 5)}
	benSays := map[string]tasks.Answers{"r1": answers("ok", "yes", "score", 4), "r2": answers("ok", "no", "score", 3),
		"r3": answers("ok", "no", "score", 5), "r4": answers("ok", "no", "score", 5)}
	annTimes := map[string]int64{"r1": 2000, "r2": 4000, "r3": 6000, "r4": 8000, "r6": 10000}
	labelBoth := func() {
		f.label(ann, func(ext string) tasks.Answers { return annSays[ext] }, func(ext string) int64 { return annTimes[ext] })
		f.label(ben, func(ext string) tasks.Answers { return benSays[ext] }, fixed(3000))
	}
	labelBoth()
	decided := map[string]tasks.Answers{"r2": answers("ok", "yes", "score", 3), "r3": answers("ok", "no", "score", 2)}
	if got := f.work(adj, flow.StageAdjudicate, func(ext string) *workflow.Submission {
		return &workflow.Submission{Answers: decided[ext], Rationale: "the guidelines say so"}
	}); len(got) != 2 {
		t.Fatalf("adjudicated %+v", got)
	}
	f.importItems(line("r4"))
	labelBoth()
	f.importItems(line("r6"))
	f.label(ann, func(ext string) tasks.Answers { return annSays[ext] }, func(ext string) int64 { return annTimes[ext] })
	f.importItems(line("r5"))
	p := f.project()
	c, err := f.wf.Next(f.ctx, p, ann, store.RoleSet{store.RoleAnnotator}, flow.StageLabel, false)
	if err != nil || c == nil || f.extOf(c.Assignment.ItemID) != "r5" {
		t.Fatalf("claim of r5: %+v, %v", c, err)
	}
	if err := f.wf.Flag(f.ctx, p, workflow.Worker{ID: ann.ID, Roles: store.RoleSet{store.RoleAnnotator}}, c.Assignment.ID, flow.FlagOther, "off topic"); err != nil {
		t.Fatal(err)
	}
	if err := f.wf.ResolveFlag(f.ctx, p, f.lead.ID, c.Assignment.ItemID, flow.FlagDrop, "not for this set"); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDatasetReport: the dataset report of reportFixture counted by hand: stages, provenance,
// drops, labels per item, the questions whose disagreements went to adjudication, times per
// annotator and overall, the decided values and the languages; the cached report is the one
// computed at once.
func TestDatasetReport(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := reportFixture(t, st)
		p := f.project()
		rep, err := f.in.ComputeReport(f.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != insight.AgreementReady || rep.Items != 7 || rep.Decided != 4 || rep.Labels != 9 || rep.Adaptive != nil {
			t.Fatalf("report: %s, %d items, %d decided, %d labels, adaptive %+v", rep.Status, rep.Items, rep.Decided, rep.Labels, rep.Adaptive)
		}
		if want := []insight.ValueCount{{"done", 4}, {"adjudicate", 1}, {"dropped", 1}, {"label", 1}}; !slices.Equal(rep.Stages, want) {
			t.Errorf("stages %+v", rep.Stages)
		}
		if want := []insight.ValueCount{{"adjudicated", 2}, {"constructed", 1}, {"unanimous", 1}}; !slices.Equal(rep.Provenance, want) {
			t.Errorf("provenance %+v", rep.Provenance)
		}
		near(t, "dropped share", rep.DroppedShare, 1.0/7)
		if len(rep.Dropped) != 1 || rep.Dropped[0].Count != 1 || !strings.HasPrefix(rep.Dropped[0].Value, "flagged: ") ||
			!strings.HasSuffix(rep.Dropped[0].Value, "; lead: not for this set") {
			t.Errorf("dropped %+v", rep.Dropped)
		}
		if want := []insight.LabelsBin{{1, 1}, {2, 4}}; !slices.Equal(rep.LabelsPerItem, want) {
			t.Errorf("labels per item %+v", rep.LabelsPerItem)
		}
		// ok disagreed on r2 (adjudicated) and r4 (waiting); score on r3 (adjudicated)
		wantAdj := map[string][2]int64{"ok": {2, 1}, "score": {1, 1}, "notes": {0, 0}}
		for _, a := range rep.Adjudication {
			w := wantAdj[a.Key]
			if a.Disagreed != w[0] || a.Adjudicated != w[1] {
				t.Errorf("adjudication of %s: %+v, want %v", a.Key, a, w)
			}
			near(t, a.Key+" adjudication rate", a.Rate, float64(w[1])/4)
		}
		near(t, "median seconds", rep.MedianSeconds, 3)
		if len(rep.Annotators) != 2 || rep.Annotators[0].Name != "Ann" || rep.Annotators[0].Labels != 5 || rep.Annotators[1].Labels != 4 {
			t.Fatalf("annotators %+v", rep.Annotators)
		}
		near(t, "Ann median", rep.Annotators[0].MedianSeconds, 6)
		near(t, "Ben median", rep.Annotators[1].MedianSeconds, 3)
		wantScores := map[string][]insight.ValueCount{"ok": {{"not_satisfied", 2}, {"satisfied", 2}}, "score": {{"1", 1}, {"2", 1}, {"3", 1}, {"4", 1}}}
		if len(rep.Scores) != 2 {
			t.Fatalf("scores %+v", rep.Scores)
		}
		for _, d := range rep.Scores {
			if !slices.Equal(d.Values, wantScores[d.Key]) {
				t.Errorf("scores of %s: %+v", d.Key, d.Values)
			}
		}
		if want := []insight.LanguageCount{{"", 5, 2}, {"de", 1, 1}, {"en", 1, 1}}; !slices.Equal(rep.Languages, want) {
			t.Errorf("languages %+v", rep.Languages)
		}
		if len(rep.Reviews) != 0 || rep.Criteria != (insight.CriteriaCounts{}) {
			t.Errorf("reviews %+v, criteria %+v", rep.Reviews, rep.Criteria)
		}
		sameTotals(t, f, rep)
		kept, err := f.in.DatasetReport(f.ctx, p)
		if err != nil || kept.Status != insight.AgreementReady || kept.ComputedAt == nil || kept.Items != 7 ||
			!slices.Equal(kept.Stages, rep.Stages) || !slices.Equal(kept.Languages, rep.Languages) {
			t.Fatalf("kept report %+v, %v", kept, err)
		}
	})
}

// TestReviewedLabels: review verdicts are counted, and a reviewer's correction stands in for
// the label in the figures (the corrected label answers No).
func TestReviewedLabels(t *testing.T) {
	forEachBackend(t, func(t *testing.T, st *store.Store) {
		f := newFixture(t, st, projects.ProjectSpec{Workflow: &workflow.Policy{Overlap: 1, Review: workflow.ReviewCross}})
		ann := f.annotators("Ann")[0]
		ben := f.user("Ben", store.RoleReviewer)
		f.importItems(line("v1"), line("v2"), line("v3"))
		f.label(ann, func(string) tasks.Answers { return answers("ok", "yes", "score", 4) }, fixed(5000))
		if got := f.work(ben, flow.StageReview, func(ext string) *workflow.Submission {
			if ext == "v2" {
				return &workflow.Submission{Verdict: flow.VerdictCorrect, Answers: answers("ok", "no", "score", 1)}
			}
			return &workflow.Submission{Verdict: flow.VerdictApprove}
		}); len(got) != 3 {
			t.Fatalf("reviewed %+v", got)
		}
		p := f.project()
		rep, err := f.in.ComputeReport(f.ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if want := []insight.ValueCount{{"approve", 2}, {"correct", 1}}; !slices.Equal(rep.Reviews, want) {
			t.Errorf("reviews %+v", rep.Reviews)
		}
		sameTotals(t, f, rep)
		q, err := f.in.Quality(f.ctx, p)
		if err != nil || len(q.Annotators) != 1 {
			t.Fatalf("quality %+v, %v", q, err)
		}
		near(t, "Ann's Yes rate with the correction", ptr(q.Annotators[0].YesRate["ok"]), 2.0/3)
	})
}

// sameTotals: the totals counted by the database (a release's card) are the report's.
func sameTotals(t *testing.T, f *fixture, rep *insight.DatasetReport) {
	t.Helper()
	got, err := f.in.CountLabels(f.ctx, f.pid)
	if err != nil || got.Labels != rep.Labels || got.Annotators != int64(len(rep.Annotators)) || !slices.Equal(got.Reviews, rep.Reviews) {
		t.Errorf("counted %+v (%v), the report has %d labels, %d annotators, reviews %+v", got, err, rep.Labels, len(rep.Annotators), rep.Reviews)
	}
}
